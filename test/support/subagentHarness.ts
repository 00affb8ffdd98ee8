/**
 * The `run_subagent` tool over plain node, as the extension wires it: the built-in tools over a
 * temp workspace, a real tool runner (trust given, so nothing waits for a card), the local
 * gateway's client for every profile, and the parent's turn as the chat's `runTurn` runs it.
 */
import { GatewayClient } from '../../src/api/client';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner, type Tool, type ToolRunnerOptions } from '../../src/chat/tools/core/runner';
import type { ToolCardUpdate } from '../../src/chat/tools/core/toolCard';
import type { SubagentToolDeps } from '../../src/chat/subagents/core/deps';
import { subagentTool } from '../../src/chat/subagents/core/subagentTool';
import { builtinAgents, type AgentDefinition } from '../../src/chat/agents/core/agent';
import { runTurn, type TurnOutcome } from '../../src/chat/session/core/turnRunner';
import type { Conversation } from '../../src/shared/protocol';
import { nodeToolHost } from './nodeToolHost';
import { UNSET_PARAMS, userConversation } from './helpers';
import type { Gateway } from '../gateway/server';

export interface SubagentHarness {
  tool: Tool;
  runner: ToolRunner;
  cards: ToolCardUpdate[];
  /** Asked approvals (the relay's requests, by the parent call's id). */
  approvals: string[];
  /** Runs a parent turn whose user message is `text` on `model` (default gw-chat). */
  parentTurn(
    text: string,
    o?: { model?: string; signal?: AbortSignal; maxRounds?: number },
  ): Promise<{
    outcome: TurnOutcome;
    conversation: Conversation;
  }>;
}

export interface HarnessOptions {
  root: string;
  /** Tools the user turned off (not offered by the runner). */
  disabled?: readonly string[];
  agents?: readonly AgentDefinition[];
  deps?: Partial<SubagentToolDeps>;
  /** Tool names that ask (untrusted); default: none asks. */
  untrusted?: readonly string[];
}

export function subagentHarness(gw: () => Gateway, o: HarnessOptions): SubagentHarness {
  const cards: ToolCardUpdate[] = [];
  const approvals: string[] = [];
  const client = () => new GatewayClient({ baseUrl: gw().url, apiKey: gw().keys.valid, maxRetries: 0 });
  const host = nodeToolHost([{ name: 'ws', path: o.root }], { commandTimeoutMs: 5000 });
  const tools: Tool[] = [];
  const options: ToolRunnerOptions = {
    tools: () => tools.filter((t) => !o.disabled?.includes(t.definition.function.name)),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: (n) => !o.untrusted?.includes(n), trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  };
  const deps: SubagentToolDeps = {
    parent: () => Promise.resolve({ agent: builtinAgents()[0]!, profile: 'main', model: 'gw-chat' }),
    agent: (name) => Promise.resolve(o.agents?.find((a) => a.name.toLowerCase() === name.toLowerCase())),
    settings: () => ({ maxParallel: 2, maxRounds: 5, utilityModel: '' }),
    profiles: () => [
      { id: 'main', name: 'Main' },
      { id: 'other', name: 'Other' },
    ],
    backend: () => Promise.resolve(client()),
    runner: (r) => new ToolRunner({ ...options, ...r, choice: () => 'auto' }),
    approve: (req) => {
      approvals.push(req.callId);
      return Promise.resolve('allow');
    },
    post: (u) => cards.push(u),
    money: (c) => `${c.quota}q`,
    ...o.deps,
  };
  const tool = subagentTool(deps);
  tools.push(...builtinTools(host), tool);
  const runner = new ToolRunner(options);
  return {
    tool,
    runner,
    cards,
    approvals,
    parentTurn: async (text, t = {}) => {
      const conversation = userConversation(text, { id: 'c-parent' });
      const outcome = await runTurn({
        backend: client(),
        conversation,
        defaults: { model: t.model ?? 'gw-chat', systemPrompt: '', params: UNSET_PARAMS },
        executor: runner,
        maxRounds: t.maxRounds ?? 5,
        signal: t.signal ?? new AbortController().signal,
        callbacks: { onMessage: () => undefined, onDelta: () => undefined },
      });
      return { outcome, conversation };
    },
  };
}

/** A `#tools` script as the local gateway reads it. */
export function script(turns: unknown[]): string {
  return `#tools ${JSON.stringify(turns)}`;
}
