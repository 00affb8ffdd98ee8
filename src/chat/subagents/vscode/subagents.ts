/**
 * The `run_subagent` tool in the extension: its definition is listed with the chat's tools at
 * once, its code (`../core/subagentTool.ts`) is imported on the first call. Settings are the
 * user's own (a repository cannot raise the limits or point a subagent at a model: those spend
 * money); the clients are the profiles' own (`failoverBackend`, each with its key); its runs'
 * costs go to the conversation's caps.
 */
import * as vscode from 'vscode';
import type { Services } from '../../../platform/services';
import { userOrDefault, userValue } from '../../../platform/userSettings';
import { formatMoney } from '../../../shared/money';
import type { Conversation, ToolMode } from '../../../shared/protocol';
import type { AgentCatalog } from '../../agents/core/agent';
import { displayToQuota, readCap } from '../../caps/core/capMath';
import type { SideSpend } from '../../caps/core/sideSpend';
import type { Tool, ToolCallContext } from '../../tools/core/runner';
import type { ConversationToolCall } from '../../tools/core/seam';
import type { ParentTurn, SubagentBackend, SubagentSettings, SubagentToolDeps } from '../core/deps';
import { SUBAGENT_TOOL_DEFINITION } from '../core/toolDefinition';

/** What the tool reads of the chat: the shown conversation and its model, its agents, its caps. */
export interface SubagentChat {
  shown(): Conversation;
  currentModel(): string;
  modeFor(model: string): ToolMode;
  agents: AgentCatalog;
  side: SideSpend;
  postToolCall(u: ConversationToolCall): void;
  /** A profile's chat client (its failover backend, with its own key). */
  backend(profile: string): Promise<SubagentBackend>;
  /** The gateway and profile a backend's answers are billed to (their prices). */
  billedTo(backend: unknown): { gateway: string; profile?: string };
}

/** The chat's tool runners for subagents, once the tools are registered (`chat/tools` offers them). */
export type NestedRunners = Pick<SubagentToolDeps, 'runner' | 'approve'>;

const num = (key: string, fallback: number, min: number, max: number): number => {
  const v = userOrDefault(key);
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.floor(v))) : fallback;
};

/** The user's settings now (never a workspace's). */
export function subagentSettings(): SubagentSettings {
  const utility = userOrDefault('utilityModel');
  return {
    maxParallel: num('subagents.maxParallel', 3, 1, 8),
    maxRounds: num('subagents.maxRounds', 15, 1, 100),
    utilityModel: typeof utility === 'string' ? utility : '',
  };
}

/**
 * The tool, and where the chat's tool runners are handed to it once the tools are registered
 * (they are built after the tool list that contains this tool).
 */
export function chatSubagentTool(s: Services, chat: SubagentChat): { tool: Tool; use(n: NestedRunners): void } {
  let nested: NestedRunners | undefined;
  let loaded: Promise<Tool> | undefined;
  const load = () =>
    (loaded ??= import('../core/subagentTool').then((m) => m.subagentTool(deps(s, chat, () => nested))));
  const tool: Tool = {
    definition: SUBAGENT_TOOL_DEFINITION,
    readOnly: true,
    prepare: async (args, ctx) => (await load()).prepare(args, ctx),
  };
  return { tool, use: (n) => (nested = n) };
}

function deps(s: Services, chat: SubagentChat, nested: () => NestedRunners | undefined): SubagentToolDeps {
  const runners = () => {
    const n = nested();
    if (!n) throw new Error('the chat tools are not registered yet');
    return n;
  };
  return {
    parent: (ctx) => parentTurn(s, chat, ctx),
    agent: (name) => chat.agents.get(name),
    settings: subagentSettings,
    profiles: () => s.profiles.list().profiles.map((p) => ({ id: p.id, name: p.name })),
    backend: (profile) => chat.backend(profile),
    runner: (o) => runners().runner(o),
    approve: (req) => runners().approve(req),
    post: (u) => chat.postToolCall(u),
    price: (backend, q) => s.answerCosts.price({ ...q, ...chat.billedTo(backend) }),
    cap: (conversationId, unit) => runCap(chat, conversationId, unit),
    spent: (conversationId, cost) => chat.side.add(conversationId, cost),
    money: (c) => formatMoney(c.quota, c.unit, { precise: true, tokens: (f) => vscode.l10n.t('{0} tokens', f) }),
    modeFor: (model) => chat.modeFor(model),
  };
}

/**
 * The turn's agent (from the answer that made the call), profile and model. A turn whose
 * conversation is no longer shown goes on with the active profile's default model.
 */
async function parentTurn(s: Services, chat: SubagentChat, ctx: ToolCallContext): Promise<ParentTurn> {
  const c = chat.shown();
  if (c.id !== ctx.conversationId) {
    const p = s.profiles.active();
    const model =
      p.chatModel || (typeof userOrDefault('chatModel') === 'string' ? String(userOrDefault('chatModel')) : '');
    return { profile: p.id, model };
  }
  const answer = c.messages.find((m) => m.id === ctx.answerId);
  const agentId = (answer?.role === 'assistant' ? answer.agent : undefined) ?? c.agent ?? 'agent';
  const agent = await chat.agents.get(agentId);
  return {
    ...(agent ? { agent } : {}),
    profile: c.profile ?? s.profiles.activeId(),
    model: (answer?.role === 'assistant' ? answer.requestedModel : undefined) || chat.currentModel(),
  };
}

/** A run's own cap: `gatewayStudio.subagents.capPerRun`, and never more than the turn's cap. */
function runCap(chat: SubagentChat, conversationId: string, unit: Parameters<typeof displayToQuota>[1]) {
  const shown = chat.shown();
  const own = shown.id === conversationId ? shown.caps?.turn : undefined;
  const caps = [userValue('subagents.capPerRun'), own ?? userValue('spend.capPerTurn')]
    .map(readCap)
    .flatMap((r) => (r.ok && r.cap !== undefined ? [displayToQuota(r.cap, unit)] : []));
  return caps.length ? Math.min(...caps) : undefined;
}
