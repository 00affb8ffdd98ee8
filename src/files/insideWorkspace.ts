/**
 * The one "does this path lead out of the workspace?" rule, shared by every reader and writer of
 * workspace files: the chat tools, the rules files, @-mentions, video reference images and the
 * video output folder. A hostile repository can commit `AGENTS.md -> /proc/self/environ` or
 * `ref.png -> ~/.ssh/id_rsa`; comparing names is not enough, only the real (symlink-free) path of
 * the target against the real paths of the workspace folders tells. Node built-ins only, so the
 * cores and the VS Code side use the same code.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Whether names that differ only in case are the same file here (Windows, macOS by default). */
const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

/**
 * `child` equals `parent` or lies below it, compared by path segments (so `/ws-evil` is not inside
 * `/ws`), case-insensitively where the file system usually is.
 */
export function isInside(parent: string, child: string): boolean {
  const norm = (p: string) => {
    const r = path.resolve(p);
    return CASE_INSENSITIVE ? r.toLowerCase() : r;
  };
  const rel = path.relative(norm(parent), norm(child));
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** The real path of `p`, or `p` resolved when it does not exist (a missing folder is not an escape). */
export async function realpathOrSelf(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Follows symlinks as far as the path exists, then appends the missing rest, so a not-yet-existing
 * file below a symlinked folder (or a dangling link) is judged by where it would be created.
 */
export async function realpathAllowMissing(p: string, depth = 0): Promise<{ real: string; exists: boolean }> {
  if (depth > 32) throw new LinkLoopError(p);
  const missing: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      const real = await fs.realpath(cur);
      return { real: missing.length ? path.join(real, ...missing.reverse()) : real, exists: missing.length === 0 };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // A dangling symlink is not "missing, fine": its target is what a write would create.
        const link = await fs.readlink(cur).catch(() => undefined);
        if (link !== undefined) {
          const inner = await realpathAllowMissing(path.resolve(path.dirname(cur), link), depth + 1);
          return { real: missing.length ? path.join(inner.real, ...missing.reverse()) : inner.real, exists: false };
        }
        const parent = path.dirname(cur);
        if (parent === cur) return { real: path.resolve(p), exists: false };
        missing.push(path.basename(cur));
        cur = parent;
        continue;
      }
      if (code === 'ELOOP') throw new LinkLoopError(p);
      throw e;
    }
  }
}

/** A path whose symbolic links loop or nest too deep. */
export class LinkLoopError extends Error {
  constructor(readonly file: string) {
    super(`"${file}" goes through a loop of symbolic links.`);
    this.name = 'LinkLoopError';
  }
}

export type InsideCheck =
  { inside: true; real: string; root: string; exists: boolean } | { inside: false; real: string; exists: boolean };

/**
 * Where `target` really is, and whether that is inside one of `roots` (also compared by their
 * real paths: the workspace itself may sit under a symlink such as macOS's /tmp).
 */
export async function checkInside(target: string, roots: readonly string[]): Promise<InsideCheck> {
  const { real, exists } = await realpathAllowMissing(target);
  for (const r of roots) {
    if (isInside(await realpathOrSelf(r), real)) return { inside: true, real, root: r, exists };
  }
  return { inside: false, real, exists };
}

/** Whether `target` is named inside one of `roots` (symlinks not followed): a workspace file by its name. */
export function namedInside(target: string, roots: readonly string[]): boolean {
  return roots.some((r) => isInside(r, target));
}

/**
 * The rule for readers of workspace files (rules, mentions, reference images): a file named inside
 * the workspace must also really be inside it. A file the user chose outside the workspace (a
 * dialog, a drop from the OS) is named outside and is the user's own choice, so it passes.
 * Returns the real target when a link leads out, undefined when the file may be read.
 */
export async function linkLeadsOut(target: string, roots: readonly string[]): Promise<string | undefined> {
  if (!namedInside(target, roots)) return undefined;
  const c = await checkInside(target, roots);
  return c.inside ? undefined : c.real;
}

/** Folders whose content can run code or hold secrets; never read or written by the agent's tools. */
export const PROTECTED_DIRS: readonly string[] = ['.git', '.vscode'];

/** Whether a root-relative path goes into a protected folder (case-insensitive: macOS, Windows). */
export function protectedSegment(relative: string): string | undefined {
  for (const seg of relative.split(/[\\/]/)) {
    const hit = PROTECTED_DIRS.find((d) => d.toLowerCase() === seg.toLowerCase());
    if (hit) return hit;
  }
  return undefined;
}

/** Why a feature must not create or read its own file at a path (see {@link placeProblem}). */
export type PlaceRefusal = { kind: 'outside'; real: string } | { kind: 'protected'; dir: string; real: string };

/**
 * The rule for the files a feature writes or reads beside the user's (a storyboard's state file,
 * clips and exports, the gallery's frames): really inside a workspace folder and not in `.git/`
 * or `.vscode/`, judged by where links lead, a dangling one included: a committed
 * `x.storyboard.state.json -> .git/hooks/pre-commit` would otherwise have the write create a hook.
 * `userOutside`: a path named outside every folder is the user's own choice (an absolute folder in
 * user settings) and passes. Throws {@link LinkLoopError} for a loop; callers treat that as a refusal.
 */
export async function placeProblem(
  target: string,
  roots: readonly string[],
  o: { userOutside?: boolean } = {},
): Promise<PlaceRefusal | undefined> {
  const c = await checkInside(target, roots);
  if (!c.inside) return o.userOutside && !namedInside(target, roots) ? undefined : { kind: 'outside', real: c.real };
  // By where it leads and by its name: a `.git` named in the path is refused even where no link is.
  const named = roots.filter((r) => isInside(r, target)).map((r) => protectedSegment(path.relative(r, target)));
  const dir = protectedSegment(path.relative(await realpathOrSelf(c.root), c.real)) ?? named.find(Boolean);
  return dir ? { kind: 'protected', dir, real: c.real } : undefined;
}

/**
 * The first segment of a root-relative path that Windows would read as a different name, or
 * undefined. On NTFS `.git.` and `.git ` are `.git`, `GIT~1` is the 8.3 short name of `.git` (or of
 * any long name), and `config:stream` is an alternate data stream of `config`: each gets past a
 * check by name. Refused on every platform, so a repository behaves the same wherever it is opened.
 */
export function windowsAliasSegment(relative: string): string | undefined {
  for (const seg of relative.split(/[\\/]/)) {
    if (seg === '' || seg === '.' || seg === '..') continue;
    if (/[. ]$/.test(seg) || seg.includes(':')) return seg;
    const dot = seg.lastIndexOf('.');
    const name = dot > 0 ? seg.slice(0, dot) : seg;
    if (/~\d+$/.test(name)) return seg;
  }
  return undefined;
}
