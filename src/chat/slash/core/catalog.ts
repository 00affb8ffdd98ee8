/**
 * The `/` commands and skills found now: prompt files in `.github/prompts` of each workspace
 * folder and in VS Code's user prompts folder; skills in `.github/skills`, `.claude/skills`,
 * `.agents/skills` of each workspace folder and `~/.copilot/skills`, `~/.claude/skills`,
 * `~/.agents/skills` (the folders VS Code documents). In Restricted Mode the workspace's files are
 * listed as off and not read. Each file found becomes a {@link CustomizationSource} for the one
 * list of sources, with its problems and lines.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CustomizationSource } from '../../../contracts/customizations';
import type { SlashItem } from '../../../shared/protocol';
import { checkInside } from '../../../files/insideWorkspace';
import { parsePromptFile, PROMPT_FILE_SUFFIX, promptNameFromFile, type PromptFile } from './promptFile';
import { SKILL_FILE } from './skill';
import { listSkills, readHead, type FoundSkill, type SkillsFolder } from './skillFiles';

/** A prompt file read at most this far (its body is a request, not a document). */
export const PROMPT_FILE_BYTES = 256 * 1024;

export const WORKSPACE_SKILL_DIRS = ['.github/skills', '.claude/skills', '.agents/skills'] as const;
export const USER_SKILL_DIRS = ['.copilot/skills', '.claude/skills', '.agents/skills'] as const;
export const WORKSPACE_PROMPT_DIR = '.github/prompts';

export interface CatalogPlaces {
  /** The workspace folders' paths. */
  roots: readonly string[];
  /** False in Restricted Mode: workspace files are listed as off, not read. */
  trusted: boolean;
  /** The user's home folder (user-level skills). */
  home?: string;
  /** VS Code's user prompts folder (of the profile). */
  userPrompts?: string;
}

export interface PromptEntry {
  file: string;
  scope: 'workspace' | 'user';
  prompt: PromptFile;
}

export interface Catalog {
  prompts: PromptEntry[];
  skills: FoundSkill[];
  sources: CustomizationSource[];
}

const OFF_RESTRICTED = 'Restricted Mode: workspace files are not read until you trust this folder.';

async function promptFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith(PROMPT_FILE_SUFFIX))
    .map((e) => path.join(dir, e.name))
    .sort();
}

/** Reads every place; never throws (an unreadable file is a source with its problem). */
export async function readCatalog(p: CatalogPlaces): Promise<Catalog> {
  const sources: CustomizationSource[] = [];
  const prompts: PromptEntry[] = [];
  const promptDirs: SkillsFolder[] = [
    ...p.roots.map((r) => ({ dir: path.join(r, WORKSPACE_PROMPT_DIR), scope: 'workspace' as const })),
    ...(p.userPrompts ? [{ dir: p.userPrompts, scope: 'user' as const }] : []),
  ];
  for (const d of promptDirs) {
    for (const file of await promptFiles(d.dir)) {
      const read = await readPrompt(file, d.scope, p);
      if ('prompt' in read) prompts.push(read);
      else sources.push(read);
    }
  }
  const skillDirs: SkillsFolder[] = [
    ...p.roots.flatMap((r) => WORKSPACE_SKILL_DIRS.map((d) => ({ dir: path.join(r, d), scope: 'workspace' as const }))),
    ...(p.home ? USER_SKILL_DIRS.map((d) => ({ dir: path.join(p.home!, d), scope: 'user' as const })) : []),
  ];
  const readable = p.trusted ? skillDirs : skillDirs.filter((d) => d.scope === 'user');
  if (!p.trusted) sources.push(...(await restrictedSkills(skillDirs.filter((d) => d.scope === 'workspace'))));
  const listed = await listSkills(readable, p.roots);
  for (const r of listed.refused)
    sources.push({
      kind: 'skill',
      name: path.basename(path.dirname(r.file)),
      path: r.file,
      scope: r.scope,
      state: 'off',
      why: r.why,
      problems: [],
    });
  const skills = dedupe(prompts, listed.skills, sources);
  for (const e of prompts) sources.push(promptSource(e));
  for (const s of skills) sources.push(skillSource(s));
  return { prompts, skills, sources };
}

async function readPrompt(
  file: string,
  scope: 'workspace' | 'user',
  p: CatalogPlaces,
): Promise<PromptEntry | CustomizationSource> {
  const name = promptNameFromFile(file);
  const off = (why: string): CustomizationSource => ({
    kind: 'promptFile',
    name: `/${name}`,
    path: file,
    scope,
    state: 'off',
    why,
    problems: [],
  });
  if (scope === 'workspace' && !p.trusted) return off(OFF_RESTRICTED);
  if (scope === 'workspace') {
    const c = await checkInside(file, p.roots).catch(() => undefined);
    if (!c?.inside) return off(`Not read: it is a link leading outside the workspace${c ? ` (${c.real})` : ''}.`);
  }
  const head = await readHead(file, PROMPT_FILE_BYTES).catch(() => undefined);
  if (!head) return off('It cannot be read.');
  const prompt = parsePromptFile(head.text, file);
  if (!head.complete)
    prompt.problems.push({ message: `Longer than ${PROMPT_FILE_BYTES / 1024} KB: only its first part is used.` });
  return { file, scope, prompt };
}

async function restrictedSkills(folders: readonly SkillsFolder[]): Promise<CustomizationSource[]> {
  const out: CustomizationSource[] = [];
  for (const f of folders) {
    const entries = await fs.readdir(f.dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.filter((x) => x.isDirectory() || x.isSymbolicLink()).slice(0, 200))
      out.push({
        kind: 'skill',
        name: e.name,
        path: path.join(f.dir, e.name, SKILL_FILE),
        scope: 'workspace',
        state: 'off',
        why: OFF_RESTRICTED,
        problems: [],
      });
  }
  return out;
}

/** One command per name: prompt files first, then skills in folder order; the later ones are off. */
function dedupe(prompts: PromptEntry[], skills: FoundSkill[], sources: CustomizationSource[]): FoundSkill[] {
  const taken = new Set<string>();
  for (let i = 0; i < prompts.length; i++) {
    const e = prompts[i]!;
    if (!taken.has(e.prompt.name)) taken.add(e.prompt.name);
    else {
      sources.push({
        ...promptSource(e),
        state: 'off',
        why: `Another prompt file already has the name /${e.prompt.name}.`,
      });
      prompts.splice(i--, 1);
    }
  }
  const kept: FoundSkill[] = [];
  for (const s of skills) {
    if (s.header.unusable) sources.push({ ...skillSource(s), state: 'off', why: s.header.unusable });
    else if (taken.has(s.header.name))
      sources.push({
        ...skillSource(s),
        state: 'off',
        why: `Another command or skill already has the name ${s.header.name}.`,
      });
    else {
      taken.add(s.header.name);
      kept.push(s);
    }
  }
  return kept;
}

function promptSource(e: PromptEntry): CustomizationSource {
  return {
    kind: 'promptFile',
    name: `/${e.prompt.name}`,
    path: e.file,
    scope: e.scope,
    state: 'available',
    why: 'Runs when you type its name after /.',
    problems: e.prompt.problems,
  };
}

function skillSource(s: FoundSkill): CustomizationSource {
  const h = s.header;
  const why =
    !h.userInvocable && h.disableModelInvocation
      ? 'Off: user-invocable is false and disable-model-invocation is true.'
      : h.disableModelInvocation
        ? `Only when you type /${h.name}: the model is not told of it.`
        : h.userInvocable
          ? `The model sees its name and description; /${h.name} runs it.`
          : 'The model sees its name and description; it is not in the / menu.';
  const state = !h.userInvocable && h.disableModelInvocation ? 'off' : 'available';
  return { kind: 'skill', name: h.name, path: s.file, scope: s.scope, state, why, problems: h.problems };
}

/** The `/` menu's rows: prompt files, then the skills the user may invoke. */
export function slashItems(c: Pick<Catalog, 'prompts' | 'skills'>): SlashItem[] {
  return [
    ...c.prompts.map((e) => ({
      kind: 'prompt' as const,
      name: e.prompt.name,
      scope: e.scope,
      ...(e.prompt.description ? { description: e.prompt.description } : {}),
      ...(e.prompt.argumentHint ? { argumentHint: e.prompt.argumentHint } : {}),
    })),
    ...c.skills
      .filter((s) => s.header.userInvocable)
      .map((s) => ({
        kind: 'skill' as const,
        name: s.header.name,
        scope: s.scope,
        ...(s.header.description ? { description: s.header.description } : {}),
        ...(s.header.argumentHint ? { argumentHint: s.header.argumentHint } : {}),
      })),
  ];
}

/** The skills the model is told of (name and description) and may load. */
export function modelSkills(c: Pick<Catalog, 'skills'>): FoundSkill[] {
  return c.skills.filter((s) => !s.header.disableModelInvocation);
}
