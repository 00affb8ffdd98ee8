/**
 * A turn as its agent runs it (`chat/agents`): the conversation's agent, or the one the question
 * names (a prompt file's, a handoff's); its tools intersected with the question's and with the
 * model's tool mode, enforced by the runner through a scoped executor; its model for the turn's
 * requests; its instructions in the system prompt; its id on the turn's answers.
 */
import { DEFAULT_AGENT_ID, type AgentCatalog, type AgentDefinition } from '../../agents/core/agent';
import { turnAgent, type ToolAllow } from '../../agents/core/turnAgent';
import type { ContextGuard } from '../../context/core/contextGuard';
import { effectiveModel, type RequestDefaults } from '../../conversation/core/request';
import type { PromptSnapshot } from '../../prompt/core/systemPrompt';
import { scopeExecutor } from '../../tools/core/scope';
import type { ToolExecutor } from '../../tools/core/seam';
import type { Conversation, ToolMode } from '../../../shared/protocol';

/** What a question asks of its own turn besides the text (see `Question`). */
export interface TurnRequest {
  agent?: string;
  /** Tried before the agent's models (a handoff's `model`). */
  model?: string;
  tools?: readonly string[];
}

export interface AgentTurnInput {
  catalog: AgentCatalog | undefined;
  conversation: Conversation;
  request?: TurnRequest;
  defaults: RequestDefaults;
  executor: ToolExecutor | undefined;
  guard: Pick<ContextGuard, 'modeFor' | 'listedModels'>;
  prompt?: (c: Conversation) => Promise<PromptSnapshot>;
}

export interface AgentTurn {
  defaults: RequestDefaults;
  executor: ToolExecutor | undefined;
  prompt?: (c: Conversation) => Promise<PromptSnapshot>;
  /** Lines for the user and the log (an agent not found, no model of its list offered). */
  notes: string[];
}

const MODE_ALLOWS: Record<ToolMode, ToolAllow> = {
  all: () => true,
  readOnly: (_name, readOnly) => readOnly,
  none: () => false,
};

/** The question's agent, else the conversation's, else Agent; a name not found says so. */
async function pickAgent(
  catalog: AgentCatalog,
  c: Conversation,
  asked: string | undefined,
  notes: string[],
): Promise<AgentDefinition | undefined> {
  for (const id of [asked, c.agent, DEFAULT_AGENT_ID]) {
    if (id === undefined) continue;
    const found = await catalog.get(id);
    if (found) return found;
    notes.push(`agent "${id}" was not found; ${id === DEFAULT_AGENT_ID ? 'no agent applies' : 'the next one applies'}`);
  }
  return undefined;
}

export async function agentTurn(i: AgentTurnInput): Promise<AgentTurn> {
  const notes: string[] = [];
  const { catalog, conversation, executor } = i;
  const agent = catalog ? await pickAgent(catalog, conversation, i.request?.agent, notes) : undefined;
  if (!agent) {
    // No agents here (a session without a catalog): a question's model (a prompt file's, already
    // matched to the gateway's list) still answers its turn.
    const defaults = i.request?.model ? { ...i.defaults, turnModel: i.request.model } : i.defaults;
    return { defaults, executor, ...(i.prompt ? { prompt: i.prompt } : {}), notes };
  }
  const offered = new Set(executor?.definitions().map((d) => d.function.name) ?? []);
  const t = turnAgent({
    agent,
    ...(i.request?.tools ? { questionTools: i.request.tools } : {}),
    ...(i.request?.model ? { model: i.request.model } : {}),
    modelIds: i.guard.listedModels(),
    extraTools: offered,
  });
  notes.push(...t.notes);
  const defaults: RequestDefaults = { ...i.defaults, agent: agent.id, ...(t.model ? { turnModel: t.model } : {}) };
  // The tool mode of the model that answers (the user's off / read-only / all) narrows it too.
  const mode = MODE_ALLOWS[i.guard.modeFor(effectiveModel(conversation, defaults))];
  const allow: ToolAllow = (name, readOnly) => t.allows(name, readOnly) && mode(name, readOnly);
  const who = agent.builtin ? `the ${agent.name} agent` : `the custom agent "${agent.name}"`;
  const prompt = withInstructions(agent, i.prompt);
  return {
    defaults,
    executor: executor ? scopeExecutor(executor, allow, who) : undefined,
    ...(prompt ? { prompt } : {}),
    notes,
  };
}

/** The prompt snapshot with the agent's instructions (an empty snapshot when there is no other). */
function withInstructions(
  agent: AgentDefinition,
  prompt: ((c: Conversation) => Promise<PromptSnapshot>) | undefined,
): ((c: Conversation) => Promise<PromptSnapshot>) | undefined {
  if (!agent.instructions.trim()) return prompt;
  const section = {
    name: agent.name,
    instructions: agent.instructions,
    ...(agent.source ? { file: agent.source.path } : {}),
  };
  return async (c) => ({
    ...(prompt ? await prompt(c) : { environment: undefined, rules: [], rulesBlocked: false }),
    agent: section,
  });
}
