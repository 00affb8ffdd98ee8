/**
 * A skill's `SKILL.md` header (the open Agent Skills format, as VS Code and Claude Code read it):
 * only the frontmatter is read to list a skill, so a large file or a folder of 10,000 files
 * costs one small read per skill; the body and the skill's other files are read when the skill
 * is invoked (`skillFiles.ts`).
 *
 * Fields: the Agent Skills standard's `name`, `description`, `license`, `compatibility`,
 * `metadata`, `allowed-tools`; VS Code's `argument-hint`, `user-invocable`,
 * `disable-model-invocation`, `context`; Claude Code's `when_to_use`, `model`, `effort`, `agent`,
 * `hooks`, `paths`, `shell`, `arguments`. What Gateway Studio does with each is in `SkillHeader`.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';
import { parseFrontmatter } from '../../../shared/frontmatter';
import { FieldReader } from './fields';

export const SKILL_FILE = 'SKILL.md';

/** The Agent Skills rule for `name`: lowercase letters, digits and single hyphens, at most 64. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;

export interface SkillHeader {
  /** `/name` and the name `load_skill` takes: the frontmatter's, else the folder's. */
  name: string;
  /** What the model sees first (with `when_to_use` after it); empty when there is none. */
  description: string;
  argumentHint?: string;
  /** False: not in the `/` menu (the model may still load it). */
  userInvocable: boolean;
  /** True: not listed to the model; only `/name` runs it. */
  disableModelInvocation: boolean;
  /** For a `/name` request only, like a prompt file's `model`. */
  model?: string;
  /** Read and shown; never honoured: tools keep asking as the user set them (no file grants trust). */
  allowedTools?: string[];
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  whenToUse?: string;
  /** `fork` is not supported: the skill is loaded into the conversation (a problem says so). */
  context?: string;
  agent?: string;
  effort?: string;
  paths?: string[];
  shell?: string;
  arguments?: string[];
  /** Whether the file declares hooks (never run from a skill: a problem says so). */
  hasHooks: boolean;
  /** 1-based line of the body's first line. */
  bodyLine: number;
  problems: CustomizationProblem[];
  /** A problem that keeps the skill from loading at all (an invalid name). */
  unusable?: string;
}

/**
 * Reads the header of a `SKILL.md` from its first bytes (`head`, which may end mid-file: the
 * caller reads only so much). `folder` is the skill folder's name.
 */
export function parseSkillHeader(head: string, folder: string, complete: boolean): SkillHeader {
  const fm = parseFrontmatter(head);
  const f = new FieldReader(head, fm.attributes);
  const problems: CustomizationProblem[] = fm.errors.map((e) => ({ line: e.line, message: e.message }));
  if (!complete && fm.errors.some((e) => /closing ---/.test(e.message))) {
    problems.splice(0, problems.length, {
      line: 1,
      message: 'The frontmatter does not end in the first part of the file.',
    });
  }
  const own = f.string('name');
  const name = own ?? folder;
  let unusable: string | undefined;
  if (!SKILL_NAME.test(name) || name.length > NAME_MAX) {
    unusable = `name "${name.slice(0, 80)}" is not a skill name (lowercase letters, digits and hyphens, at most ${NAME_MAX}).`;
    f.problem(own !== undefined ? 'name' : '', unusable);
  } else if (own !== undefined && own !== folder) {
    f.problem('name', `name "${own}" differs from its folder "${folder}" (VS Code requires them to match).`);
  }
  let description = f.string('description') ?? '';
  if (!description) {
    description = firstParagraph(fm.body);
    f.problem('', 'No description: the model sees the first paragraph instead.');
  }
  if (description.length > DESCRIPTION_MAX)
    f.problem('description', `description is longer than ${DESCRIPTION_MAX} characters.`);
  const whenToUse = f.string('when_to_use');
  const context = f.string('context');
  if (context === 'fork')
    f.problem('context', 'context: fork is not supported: the skill is loaded into the conversation.');
  const hasHooks = f.has('hooks');
  if (hasHooks) f.problem('hooks', 'Hooks in a skill are not run.');
  const allowedTools = f.list('allowed-tools', true);
  if (allowedTools?.length)
    f.problem('allowed-tools', 'allowed-tools does not pre-approve tools here: they ask as you set them.');
  return {
    name,
    description: whenToUse ? `${description} ${whenToUse}` : description,
    ...opt('argumentHint', f.string('argument-hint')),
    userInvocable: f.boolean('user-invocable') ?? true,
    disableModelInvocation: f.boolean('disable-model-invocation') ?? false,
    ...opt('model', f.string('model')),
    ...opt('allowedTools', allowedTools),
    ...opt('license', f.string('license')),
    ...opt('compatibility', f.string('compatibility')),
    ...opt('metadata', f.stringMap('metadata')),
    ...opt('whenToUse', whenToUse),
    ...opt('context', context),
    ...opt('agent', f.string('agent')),
    ...opt('effort', f.string('effort')),
    ...opt('paths', f.list('paths')),
    ...opt('shell', f.string('shell')),
    ...opt('arguments', f.list('arguments', true)),
    hasHooks,
    bodyLine: fm.bodyLine,
    problems: [...problems, ...f.problems],
    ...opt('unusable', unusable),
  };
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The body's first paragraph (Claude Code's stand-in for a missing description), one line. */
function firstParagraph(body: string): string {
  const para = body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .find((p) => p && !p.startsWith('#'));
  return (para ?? '').replace(/\s+/g, ' ').slice(0, DESCRIPTION_MAX);
}
