/**
 * What every customization source reports for the one place that lists them (issue 37: rules and
 * instructions, prompt files, skills, agents, hooks, command rules, MCP servers). Each reader
 * (in its own chat capability) returns these; the list shows which files were found, which apply
 * now and why, and which are off and why, with a parse error's line. Types only.
 */
export type CustomizationKind =
  'instructions' | 'promptFile' | 'skill' | 'agent' | 'hooks' | 'commandRules' | 'mcpServer';

export interface CustomizationProblem {
  /** 1-based line in the file, when the problem has one. */
  readonly line?: number;
  readonly message: string;
}

export interface CustomizationSource {
  readonly kind: CustomizationKind;
  /** The name shown (a skill's or agent's name, a prompt's `/command`, else the file name). */
  readonly name: string;
  /** Absolute file path (a setting's id for sources that live in settings). */
  readonly path: string;
  readonly scope: 'workspace' | 'user';
  /**
   * `applies`: in this conversation's requests now; `available`: found and usable on demand (a
   * prompt file, a skill, an agent not picked); `off`: not used, `why` says so (Restricted Mode,
   * not approved, turned off, parse error).
   */
  readonly state: 'applies' | 'available' | 'off';
  /** Why it applies or why it is off, one short line for the user. */
  readonly why?: string;
  readonly problems: readonly CustomizationProblem[];
}

/** One reader's part of the list. */
export interface CustomizationSourceProvider {
  readonly kind: CustomizationKind;
  list(): Promise<readonly CustomizationSource[]>;
}
