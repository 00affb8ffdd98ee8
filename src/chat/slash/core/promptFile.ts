/**
 * A prompt file (`*.prompt.md`, VS Code's "slash commands"): YAML frontmatter with the fields
 * VS Code documents (`name`, `description`, `argument-hint`, `agent` and its older name `mode`,
 * `model`, `tools`), then the Markdown body sent as the request. A parse error is a problem with
 * its line; the body still reads, so the command still runs.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';
import { parseFrontmatter } from '../../../shared/frontmatter';
import { FieldReader } from './fields';

export const PROMPT_FILE_SUFFIX = '.prompt.md';

/** A `/command` name: what can follow `/` in the composer and in a message. */
export const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export interface PromptFile {
  /** After `/`: the frontmatter's `name`, else the file name without `.prompt.md`. */
  name: string;
  description?: string;
  argumentHint?: string;
  /** `agent`, else the older `mode` (ask, edit, agent, plan or a custom agent's name). */
  agent?: string;
  /** For this request only. */
  model?: string;
  /** Tool and tool-set names as written; narrowed to the user's tools when the prompt runs. */
  tools?: string[];
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
  problems: CustomizationProblem[];
}

/** The command name a prompt file gets from its file name. */
export function promptNameFromFile(fileName: string): string {
  const base = fileName.replace(/\\/g, '/').split('/').pop() ?? fileName;
  return base.toLowerCase().endsWith(PROMPT_FILE_SUFFIX) ? base.slice(0, -PROMPT_FILE_SUFFIX.length) : base;
}

/** Parses one prompt file; never throws. `fileName` gives the name when the frontmatter has none. */
export function parsePromptFile(text: string, fileName: string): PromptFile {
  const fm = parseFrontmatter(text);
  const f = new FieldReader(text, fm.attributes);
  const problems: CustomizationProblem[] = fm.errors.map((e) => ({ line: e.line, message: e.message }));
  let name = promptNameFromFile(fileName);
  const own = f.string('name');
  if (own !== undefined) {
    if (COMMAND_NAME.test(own)) name = own;
    else
      f.problem(
        'name',
        `name "${own.slice(0, 80)}" cannot follow "/" (letters, digits, ".", "_", "-"); /${name} is used.`,
      );
  }
  const agent = f.string('agent') ?? f.string('mode');
  const model = firstModel(f);
  const description = f.string('description');
  const argumentHint = f.string('argument-hint');
  const tools = f.list('tools');
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    ...(argumentHint !== undefined ? { argumentHint } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(tools !== undefined ? { tools } : {}),
    body: fm.body,
    bodyLine: fm.bodyLine,
    problems: [...problems, ...f.problems],
  };
}

/** `model`: one name; a list (as custom agents allow) gives its first. */
function firstModel(f: FieldReader): string | undefined {
  if (!f.has('model')) return undefined;
  const one = f.list('model');
  return one?.[0];
}
