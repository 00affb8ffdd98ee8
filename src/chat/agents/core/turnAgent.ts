/**
 * What an agent means for one turn: which tools it may use (with a prompt file's own list
 * intersected), and which model answers (the first of its models the gateway offers). The tool
 * runner enforces the tools; the session sends the turn to the model. Nothing here can widen
 * what the user allowed: the result only narrows.
 */
import * as l10n from '@vscode/l10n';
import type { ToolAllow } from '../../tools/core/seam';
import type { AgentDefinition } from './agent';
import { mapToolNames } from './toolNames';

export type { ToolAllow } from '../../tools/core/seam';

export interface TurnAgentInput {
  readonly agent: AgentDefinition;
  /** The question's own tool names (a prompt file's `tools`), in any documented spelling. */
  readonly questionTools?: readonly string[];
  /** A model asked for this request alone (a handoff's), tried before the agent's. */
  readonly model?: string;
  /** The ids the conversation's gateway lists now; empty when the list could not be read. */
  readonly modelIds: readonly string[];
  /** Other tools offered now (features', extensions'), accepted under their own names. */
  readonly extraTools?: ReadonlySet<string>;
}

export interface TurnAgent {
  readonly id: string;
  readonly allows: ToolAllow;
  /** The model for the turn; undefined: the conversation's. */
  readonly model?: string;
  /** Lines for the log: a model not offered, say. */
  readonly notes: readonly string[];
}

/** The agent's tool rule as a predicate. */
export function agentAllows(agent: AgentDefinition): ToolAllow {
  const t = agent.tools;
  if (t.kind === 'all') return () => true;
  if (t.kind === 'readOnly') return (_name, readOnly) => readOnly;
  const names = new Set(t.names);
  return (name) => names.has(name);
}

export function turnAgent(i: TurnAgentInput): TurnAgent {
  const notes: string[] = [];
  const own = agentAllows(i.agent);
  let allows = own;
  if (i.questionTools) {
    const asked = new Set(mapToolNames(i.questionTools, i.extraTools).names);
    allows = (name, readOnly) => own(name, readOnly) && asked.has(name);
  }
  // A user's setting (a built-in agent's model) is theirs and is sent as typed, as the model box
  // does; a file's names are only taken from what this gateway lists, so a file cannot send the
  // turn anywhere the user's own model list does not go.
  const wanted = [...(i.model ? [i.model] : []), ...i.agent.models];
  let model: string | undefined;
  for (const w of wanted) {
    model = matchModel(w, i.modelIds) ?? (i.agent.builtin && w !== i.model ? w : undefined);
    if (model) break;
  }
  if (!model && wanted.length)
    notes.push(
      l10n.t(
        "Agent {0}: none of its models ({1}) is offered by this gateway; the conversation's model answers.",
        i.agent.name,
        wanted.join(', '),
      ),
    );
  return { id: i.agent.id, allows, ...(model ? { model } : {}), notes };
}

/**
 * The gateway's id for a model an agent file names: the id itself, or the same name without
 * case, without VS Code's ` (vendor)` qualifier, with spaces as hyphens, or without a provider
 * prefix (`anthropic/…`); Claude's aliases (`sonnet`, `opus`, `haiku`) take the first id that
 * contains them. Undefined when the list has no such model.
 */
export function matchModel(wanted: string, ids: readonly string[]): string | undefined {
  const w = wanted.trim();
  if (!w) return undefined;
  if (ids.includes(w)) return w;
  const norm = (s: string) =>
    s
      .replace(/\s*\([^)]*\)\s*$/, '')
      .trim()
      .toLowerCase()
      .replace(/\s+/g, '-');
  const n = norm(w);
  const tail = (s: string) => s.slice(s.lastIndexOf('/') + 1);
  const found = ids.find((id) => norm(id) === n) ?? ids.find((id) => tail(norm(id)) === tail(n));
  if (found) return found;
  if (/^(sonnet|opus|haiku)$/.test(n)) return ids.find((id) => id.toLowerCase().includes(n));
  return undefined;
}
