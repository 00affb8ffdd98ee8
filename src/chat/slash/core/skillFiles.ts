/**
 * Skills on disk: each folder of a skills folder (`.github/skills/<name>/SKILL.md`, …) is one
 * skill. Listing reads one directory per skills folder and the first {@link HEAD_BYTES} of each
 * `SKILL.md`, never the skill's own folder: a skill with 10,000 files costs the same as one with
 * none. The body and the skill's other files are read only when it is invoked, each cut to a
 * limit (a 10 MB `SKILL.md` sends its first {@link BODY_CHARS} characters). A workspace skill
 * whose `SKILL.md` or folder is a link leading out of the workspace is refused, never read.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { checkInside, isInside, realpathOrSelf } from '../../../files/insideWorkspace';
import { parseFrontmatter } from '../../../shared/frontmatter';
import { looksBinary } from '../../tools/core/fs';
import { parseSkillHeader, SKILL_FILE, type SkillHeader } from './skill';

/** What listing reads of a `SKILL.md`: its frontmatter fits with room to spare. */
export const HEAD_BYTES = 32 * 1024;
/** What invoking reads of a `SKILL.md` at most, and sends of its body. */
export const BODY_BYTES = 256 * 1024;
export const BODY_CHARS = 32_000;
/** A skill's other file: read at most this much, sent at most this many characters. */
export const FILE_BYTES = 256 * 1024;
export const FILE_CHARS = 30_000;
/** Skills per skills folder at most (a folder of thousands is listed up to this many). */
export const SKILLS_PER_FOLDER = 200;

export interface SkillsFolder {
  dir: string;
  scope: 'workspace' | 'user';
}

export interface FoundSkill {
  header: SkillHeader;
  /** The skill's folder and its `SKILL.md`. */
  dir: string;
  file: string;
  scope: 'workspace' | 'user';
}

export interface RefusedSkill {
  file: string;
  scope: 'workspace' | 'user';
  why: string;
}

/** The first `max` bytes of `file` as text, whether that is all of it, and its size. */
export async function readHead(file: string, max: number): Promise<{ text: string; complete: boolean; size: number }> {
  const h = await fs.open(file, 'r');
  try {
    const size = (await h.stat()).size;
    const buf = Buffer.alloc(Math.min(size, max));
    const { bytesRead } = await h.read(buf, 0, buf.length, 0);
    return { text: buf.subarray(0, bytesRead).toString('utf8'), complete: bytesRead >= size, size };
  } finally {
    await h.close();
  }
}

/** Why a workspace path may not be read (it leads out of `roots`), or undefined. */
async function leavesWorkspace(p: string, roots: readonly string[]): Promise<string | undefined> {
  try {
    const c = await checkInside(p, roots);
    return c.inside ? undefined : `it is a link to ${c.real}, outside the workspace`;
  } catch {
    return 'its links cannot be followed';
  }
}

/** Every skill of `folders` (workspace ones checked against `roots`), and the ones refused. */
export async function listSkills(
  folders: readonly SkillsFolder[],
  roots: readonly string[],
): Promise<{ skills: FoundSkill[]; refused: RefusedSkill[] }> {
  const skills: FoundSkill[] = [];
  const refused: RefusedSkill[] = [];
  for (const folder of folders) {
    const entries = await fs.readdir(folder.dir, { withFileTypes: true }).catch(() => []);
    const dirs = entries
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .sort()
      .slice(0, SKILLS_PER_FOLDER);
    for (const name of dirs) {
      const dir = path.join(folder.dir, name);
      const file = path.join(dir, SKILL_FILE);
      const out = folder.scope === 'workspace' ? await leavesWorkspace(file, roots) : undefined;
      if (out) {
        refused.push({ file, scope: folder.scope, why: `Not read: ${out}.` });
        continue;
      }
      const head = await readHead(file, HEAD_BYTES).catch(() => undefined);
      if (!head) continue;
      skills.push({ header: parseSkillHeader(head.text, name, head.complete), dir, file, scope: folder.scope });
    }
  }
  return { skills, refused };
}

/** The text the model gets when `skill` is invoked: its body, cut to the limit, and how to read its files. */
export async function loadSkillBody(skill: FoundSkill, roots: readonly string[]): Promise<string> {
  const out = skill.scope === 'workspace' ? await leavesWorkspace(skill.file, roots) : undefined;
  if (out) throw new Error(`The skill "${skill.header.name}" is not read: ${out}.`);
  const head = await readHead(skill.file, BODY_BYTES);
  let body = parseFrontmatter(head.text).body.trim();
  let cut = '';
  if (body.length > BODY_CHARS || !head.complete) {
    body = body.slice(0, BODY_CHARS);
    cut = `\n\n(The skill's instructions were cut: the first ${BODY_CHARS} characters of a ${head.size}-byte file are shown.)`;
  }
  return `${body}${cut}\n\nFiles this skill refers to (relative to its folder) can be read with load_skill, giving "name": "${skill.header.name}" and "file".`;
}

/** One file of the skill's folder, named relative to it; never a path that leaves the folder. */
export async function readSkillFile(skill: FoundSkill, relative: string, roots: readonly string[]): Promise<string> {
  const wanted = relative.trim().replace(/\\/g, '/');
  if (!wanted || wanted.includes('\0') || path.isAbsolute(wanted))
    throw new Error('Give a path relative to the skill folder.');
  const target = path.resolve(skill.dir, wanted);
  const [realDir, realTarget] = await Promise.all([realpathOrSelf(skill.dir), realpathOrSelf(target)]);
  if (!isInside(skill.dir, target) || !isInside(realDir, realTarget))
    throw new Error(`"${relative}" is outside the skill's folder.`);
  const out = skill.scope === 'workspace' ? await leavesWorkspace(target, roots) : undefined;
  if (out) throw new Error(`"${relative}" is not read: ${out}.`);
  const stat = await fs.stat(realTarget).catch(() => undefined);
  if (!stat?.isFile()) throw new Error(`The skill "${skill.header.name}" has no file "${relative}".`);
  const head = await readHead(realTarget, FILE_BYTES);
  const bytes = Buffer.from(head.text, 'utf8');
  if (looksBinary(bytes)) throw new Error(`"${relative}" is a binary file.`);
  if (head.text.length <= FILE_CHARS && head.complete) return head.text;
  return `${head.text.slice(0, FILE_CHARS)}\n\n(Cut: the first ${FILE_CHARS} characters of a ${head.size}-byte file.)`;
}
