/**
 * Which agents may run as subagents and who may start them. The built-in **Explore** reads and
 * searches only; custom agents come from the agent files (`chat/agents`). An agent file's
 * `agents:` (VS Code's field) names the subagents it may call: absent, any; `[]`, none; `*`, any.
 * A subagent starts subagents of its own only when its file lists some, and never below the
 * depth limit. Nothing here widens tools: a subagent's tools are always intersected with what
 * its parent's turn may use (see ./subagentTool.ts).
 */
import * as l10n from '@vscode/l10n';
import { findAgent, PLAN_TOOLS, type AgentDefinition } from '../../agents/core/agent';

/** The tool's wire name. */
export const RUN_SUBAGENT = 'run_subagent';

/** Subagents nest at most this deep: the parent's turn is depth 0, its subagents depth 1. */
export const MAX_DEPTH = 2;

export const EXPLORE_INSTRUCTIONS = `You are Explore, a subagent that investigates a codebase for another agent and reports back.
- You have read-only tools: read files, list folders, find files, search text, diagnostics. You cannot change anything.
- Do the task you are given, reading only what it needs. Do not ask questions: nobody can answer them.
- End with a concise summary for the agent that asked: the facts it needs (file paths, names, line numbers, short excerpts), not a transcript of what you did. It sees only your last answer.`;

/** The built-in Explore subagent (its model: the call's, else the utility model, else the conversation's). */
export const EXPLORE: AgentDefinition = {
  id: 'explore',
  name: 'Explore',
  builtin: true,
  description: 'Reads and searches the workspace for a task and reports a summary; changes nothing.',
  tools: { kind: 'names', names: PLAN_TOOLS },
  models: [],
  instructions: EXPLORE_INSTRUCTIONS,
  handoffs: [],
  userInvocable: false,
  problems: [],
};

/** A subagent definition's `agents:` as read: any agent, none, or these names. */
export type SubagentList = { kind: 'any' } | { kind: 'names'; names: string[] };

/** The `agents:` field of an agent file (kept in `extra` by the parser); undefined when absent. */
export function subagentList(agent: AgentDefinition | undefined): SubagentList | undefined {
  const v = agent?.extra?.agents;
  if (v === undefined || v === null) return undefined;
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
  const names = list.filter((x): x is string => typeof x === 'string').map((x) => x.trim());
  return names.includes('*') ? { kind: 'any' } : { kind: 'names', names: names.filter(Boolean) };
}

/**
 * Whether an agent at `depth` (0: the conversation's own) may start subagents at all, and which.
 * At depth 0 an absent `agents:` allows any; deeper, only a definition that lists some may.
 */
export function callableFrom(agent: AgentDefinition | undefined, depth: number): SubagentList {
  const none: SubagentList = { kind: 'names', names: [] };
  if (depth + 1 > MAX_DEPTH) return none;
  const own = subagentList(agent);
  if (depth === 0) return own ?? { kind: 'any' };
  return own ?? none;
}

/** Whether `list` lets the caller start `name` (case-insensitive). */
export function listAllows(list: SubagentList, name: string): boolean {
  if (list.kind === 'any') return true;
  const n = name.trim().toLowerCase();
  return list.names.some((x) => x.toLowerCase() === n);
}

/** The subagent a call names, or why it cannot run, in words the model can act on. */
export async function resolveSubagent(
  name: string,
  list: SubagentList,
  lookUp: (name: string) => Promise<AgentDefinition | undefined>,
): Promise<{ ok: true; agent: AgentDefinition } | { ok: false; why: string }> {
  const n = name.trim();
  if (!n) return { ok: false, why: l10n.t('Name the subagent to run ("agent": "Explore", or a custom agent).') };
  if (list.kind === 'names' && list.names.length === 0)
    return { ok: false, why: l10n.t('This agent may not start subagents.') };
  const agent = findAgent([EXPLORE], n) ?? (await lookUp(n));
  // The conversation's own built-ins (Agent, Ask, Plan) are not subagents: only Explore is.
  if (!agent || (agent.builtin && agent.id !== EXPLORE.id))
    return { ok: false, why: l10n.t('There is no subagent named "{0}". Use "Explore" or a custom agent.', n) };
  if (!listAllows(list, agent.name) && !listAllows(list, agent.id))
    return {
      ok: false,
      why: l10n.t(
        'This agent may not start "{0}"; it may start: {1}.',
        agent.name,
        list.kind === 'names' ? list.names.join(', ') : '*',
      ),
    };
  if (agent.extra?.['disable-model-invocation'] === true)
    return { ok: false, why: l10n.t('The agent "{0}" may not be started by a model (disable-model-invocation).', n) };
  return { ok: true, agent };
}
