/**
 * What `/name rest` becomes when it is sent: the prompt file's body with its variables filled
 * (inputs from `name=value` in `rest`, else asked), its relative links checked for attaching, its
 * `model`, `agent` and `tools` for this request (tools narrowed to the user's); or a skill's
 * instructions. Without VS Code: the editor and the input boxes come in as {@link ExpandContext}.
 */
import { checkLinks, markdownLinks, type LinkCheck } from './links';
import type { PromptFile } from './promptFile';
import { narrowTools } from './toolNames';
import { fillVariables, inputsFromArguments, inputVariables, type InputVariable } from './variables';

/** `/name rest` in a message: the command's name and what follows it. */
export function parseCommand(text: string): { name: string; rest: string } | undefined {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9._:-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, rest: (m[2] ?? '').trim() } : undefined;
}

export interface ExpandContext {
  /** Absolute path of the prompt file (links resolve against its folder). */
  file: string;
  /** The workspace folders' paths: links must stay inside them. */
  roots: readonly string[];
  /** The active editor's file and selection, and the folder the prompt runs in. */
  editorFile?: string;
  selection?: string;
  workspaceFolder?: string;
  /** Asks the user for one input; undefined when they cancel (the whole run stops). */
  ask(v: InputVariable): Promise<string | undefined>;
  /** The user's enabled tools and every tool listed (enabled or not), by wire name. */
  enabledTools: readonly string[];
  knownTools: readonly string[];
}

export interface Expanded {
  text: string;
  links: LinkCheck[];
  model?: string;
  agent?: string;
  /** Only ever a subset of `enabledTools`. */
  tools?: string[];
  /** Names in the file's `tools` that match no tool here (ignored). */
  unknownTools: string[];
}

/** The prompt file run with `rest`; undefined when the user cancelled an input. */
export async function expandPromptFile(p: PromptFile, rest: string, c: ExpandContext): Promise<Expanded | undefined> {
  const vars = inputVariables(p.body);
  const given = inputsFromArguments(
    rest,
    vars.map((v) => v.name),
  );
  const inputs = new Map(given.values);
  for (const v of vars) {
    if (inputs.has(v.name)) continue;
    const answer = await c.ask(v);
    if (answer === undefined) return undefined;
    inputs.set(v.name, answer);
  }
  const body = fillVariables(p.body, {
    inputs,
    ...(c.editorFile !== undefined ? { file: c.editorFile } : {}),
    ...(c.selection !== undefined ? { selection: c.selection } : {}),
    ...(c.workspaceFolder !== undefined ? { workspaceFolder: c.workspaceFolder } : {}),
  }).trim();
  const text = given.rest ? `${body}\n\n${given.rest}` : body;
  // Links are found in the file as written: a filled-in value cannot add one.
  const links = await checkLinks(markdownLinks(p.body), c.file, c.roots);
  const narrowed = p.tools ? narrowTools(p.tools, c.enabledTools, c.knownTools) : undefined;
  return {
    text,
    links,
    ...(p.model ? { model: p.model } : {}),
    ...(p.agent ? { agent: p.agent } : {}),
    ...(narrowed ? { tools: narrowed.tools } : {}),
    unknownTools: narrowed?.unknown ?? [],
  };
}

/** The message of `/skill rest`: the skill's instructions (already cut), then what the user typed. */
export function skillMessage(name: string, instructions: string, rest: string): string {
  const head = `Use the skill "${name}" for this request. Its instructions:\n\n${instructions.trim()}`;
  return rest ? `${head}\n\n${rest}` : head;
}

/**
 * The gateway's model a file's `model` names: the same id, else the same up to case, spaces for
 * hyphens and a `(vendor)` suffix (VS Code writes `Claude Sonnet 4 (copilot)`). Undefined when
 * the list has no such model (the current model answers then).
 */
export function matchModel(written: string, ids: readonly string[]): string | undefined {
  if (ids.includes(written)) return written;
  const norm = (s: string) =>
    s
      .replace(/\s*\([^)]*\)\s*$/, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-');
  const want = norm(written);
  return ids.find((id) => norm(id) === want) ?? ids.find((id) => norm(id.split('/').pop() ?? id) === want);
}
