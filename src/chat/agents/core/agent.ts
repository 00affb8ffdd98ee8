/**
 * What an agent is, whatever it was written in: the built-in Agent, Ask and Plan, or a custom
 * agent file of VS Code (`.agent.md`) or Claude Code (`.claude/agents/*.md`). An agent narrows
 * what a conversation's turns may do (its tools, enforced by the tool runner), may name the model
 * its turns use, adds its instructions to the system prompt and offers handoffs under its answers.
 * It never widens anything: its tools are intersected with what the user allowed.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';

/** The built-in agents' ids; a conversation without an agent is the first one's. */
export const BUILTIN_AGENT_IDS = ['agent', 'ask', 'plan'] as const;
export type BuiltinAgentId = (typeof BUILTIN_AGENT_IDS)[number];
export const DEFAULT_AGENT_ID: BuiltinAgentId = 'agent';

/**
 * Which of our tools an agent may use: every tool, the read-only ones, or these names (ours,
 * after ./toolNames mapped the file's names).
 */
export type AgentTools =
  | { readonly kind: 'all' }
  | { readonly kind: 'readOnly' }
  | { readonly kind: 'names'; readonly names: readonly string[] };

/** A button under the agent's answer that switches to another agent with a prompt. */
export interface Handoff {
  readonly label: string;
  /** The agent switched to: an id, or a custom agent's name. */
  readonly agent: string;
  readonly prompt: string;
  /** Sends the prompt at once (`send: true`); otherwise it waits in the message box. */
  readonly send: boolean;
  /** The model for the handoff's request (VS Code's `handoffs.model`), matched like `model`. */
  readonly model?: string;
}

export interface AgentSourceFile {
  readonly path: string;
  readonly scope: 'workspace' | 'user';
  /** Which documented format it was read as. */
  readonly format: 'vscode' | 'claude';
}

export interface AgentDefinition {
  /** A built-in id, or the custom agent's name (unique, case-insensitively, in the list). */
  readonly id: string;
  readonly name: string;
  readonly builtin: boolean;
  readonly description: string;
  readonly argumentHint?: string;
  readonly tools: AgentTools;
  /** Models in order of preference (the first the gateway offers is used); empty: the conversation's. */
  readonly models: readonly string[];
  /** Added to the system prompt for its turns; empty for Agent. */
  readonly instructions: string;
  readonly handoffs: readonly Handoff[];
  /** False: not offered in the picker (`user-invocable: false`); handoffs may still reach it. */
  readonly userInvocable: boolean;
  /** Fields read but without effect on the agent itself (`target`, `disable-model-invocation`, …; `agents` names its subagents: chat/subagents). */
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly source?: AgentSourceFile;
  /** Unknown tool names, bad fields, parse errors (with their line). */
  readonly problems: readonly CustomizationProblem[];
}

/** Where agents come from, as a turn asks for them. */
export interface AgentCatalog {
  /** The agent with this id (case-insensitive for custom names); undefined when there is none. */
  get(id: string): Promise<AgentDefinition | undefined>;
}

/** The read and search tools: what Plan may use, by enforcement. */
export const PLAN_TOOLS = [
  'read_file',
  'list_directory',
  'find_files',
  'search_text',
  'get_selection',
  'get_diagnostics',
] as const;

/**
 * Plan's instructions (English, for the model, like the product prompt). It cannot change
 * anything whatever it is told: its tools are read-only by enforcement; these say what it is for.
 */
export const PLAN_INSTRUCTIONS = `You are in Plan mode: research the task and write a plan; do not implement it.
- You have read-only tools (read files, list folders, find files, search text, diagnostics). You cannot change files or run commands, so do not try; if something needs a command or a change, put it in the plan.
- Read the relevant code before planning. Ask the user a short question when the task is ambiguous.
- End your answer with the plan: a numbered list of concrete steps (files to change and what changes in each), then how to verify the result (tests to run or add). The user can hand the plan to the Agent with "Start implementing".`;

/** Ask's instructions: answers from the code, changes nothing. */
export const ASK_INSTRUCTIONS = `You are in Ask mode: answer the user's questions about the code and the project. You have read-only tools; you cannot change files or run commands. When a change is wanted, show it as a code block and say that the Agent can apply it.`;

/** The built-in agents, with the models the user's settings pick for them (empty: the conversation's). */
export function builtinAgents(models: Partial<Record<BuiltinAgentId, string>> = {}): AgentDefinition[] {
  const model = (id: BuiltinAgentId) => {
    const m = models[id]?.trim();
    return m ? [m] : [];
  };
  const base = { builtin: true, userInvocable: true, problems: [] } as const;
  return [
    {
      ...base,
      id: 'agent',
      name: 'Agent',
      description: 'Reads, edits and runs commands, asking as your tool settings say.',
      tools: { kind: 'all' },
      models: model('agent'),
      instructions: '',
      handoffs: [],
    },
    {
      ...base,
      id: 'ask',
      name: 'Ask',
      description: 'Answers questions about the code; changes nothing.',
      tools: { kind: 'readOnly' },
      models: model('ask'),
      instructions: ASK_INSTRUCTIONS,
      handoffs: [],
    },
    {
      ...base,
      id: 'plan',
      name: 'Plan',
      description: 'Reads and searches, then writes a plan; cannot change files or run commands.',
      tools: { kind: 'names', names: PLAN_TOOLS },
      models: model('plan'),
      instructions: PLAN_INSTRUCTIONS,
      handoffs: [{ label: 'Start implementing', agent: 'agent', prompt: 'Implement the plan above.', send: true }],
    },
  ];
}

/** Whether `name` is a built-in agent's (custom agents may not take these names). */
export function isBuiltinName(name: string): boolean {
  const n = name.trim().toLowerCase();
  return (BUILTIN_AGENT_IDS as readonly string[]).includes(n);
}

/** Finds an agent by id or name, case-insensitively (handoffs and prompt files name agents). */
export function findAgent(list: readonly AgentDefinition[], idOrName: string): AgentDefinition | undefined {
  const n = idOrName.trim().toLowerCase();
  return list.find((a) => a.id.toLowerCase() === n) ?? list.find((a) => a.name.toLowerCase() === n);
}
