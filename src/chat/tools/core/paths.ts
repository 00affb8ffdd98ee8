import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  isInside as sharedIsInside,
  LinkLoopError,
  PROTECTED_DIRS,
  protectedSegment,
  realpathAllowMissing as sharedRealpathAllowMissing,
  realpathOrSelf,
  windowsAliasSegment,
} from '../../../files/insideWorkspace';

// The protected folders and the Windows aliases are the shared rule (the storyboard tools use it too).
export { PROTECTED_DIRS, protectedSegment, windowsAliasSegment };

/**
 * Turns a path the model asked for into a file inside the workspace, or refuses it. The model is
 * untrusted input: a relative path with `..`, an absolute path elsewhere, a symlink whose target
 * leaves the workspace, and anything under `.git/` or `.vscode/` (hooks and settings that run
 * code) are refused with a {@link ToolPathError} whose message is written for the model.
 */

/** One workspace folder: `name` lets a multi-root workspace address `name/relative/path`. */
export interface WorkspaceRoot {
  name: string;
  /** Absolute file-system path of the folder. */
  path: string;
}

/** A path that passed every check. */
export interface ResolvedPath {
  /** Absolute path as requested (symlinks not followed); what edits and reads should use. */
  absolute: string;
  /** The same path with every existing symlink followed. */
  real: string;
  root: WorkspaceRoot;
  /** Path relative to the root, `/`-separated; `''` for the root itself. */
  relative: string;
  /** Whether something exists at the path now. */
  exists: boolean;
  /**
   * `real` relative to the root's real path, `/`-separated: what a write through a symlink
   * changes (a harmless name may link to a git hook), for the checks of ./protectedFiles.
   */
  realRelative: string;
}

/** A refusal meant to be shown to the model as the tool's result. */
export class ToolPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolPathError';
  }
}

/**
 * Resolves `requested` against the workspace roots and checks it. Relative paths resolve against
 * the first root, unless the first segment names another root of a multi-root workspace, or the
 * path exists only under another root.
 */
export async function resolveWorkspacePath(requested: unknown, roots: readonly WorkspaceRoot[]): Promise<ResolvedPath> {
  if (roots.length === 0)
    throw new ToolPathError(
      'No folder is open in the editor, so no file can be accessed. Ask the user to open a folder.',
    );
  if (typeof requested !== 'string' || requested.trim() === '')
    throw new ToolPathError(
      'The path is empty. Give a path relative to the workspace folder, for example "src/index.ts".',
    );
  if (requested.includes('\0')) throw new ToolPathError('The path contains a NUL character.');
  // Models trained on Windows output use backslashes; a file name with a backslash in it is rare
  // enough on POSIX that treating it as a separator is the safer reading.
  const wanted = requested.trim().replace(/\\/g, '/');

  const candidates = await candidatesFor(wanted, roots);
  const first = candidates[0];
  if (first === undefined) {
    throw new ToolPathError(
      `"${requested}" is outside the workspace. Only files inside the workspace folders (${roots.map((r) => r.path).join(', ')}) can be used; use a path relative to the workspace.`,
    );
  }
  let picked = first;
  if (candidates.length > 1) {
    for (const c of candidates) {
      if (await exists(c.absolute)) {
        picked = c;
        break;
      }
    }
  }
  return check(requested, picked.absolute, picked.root);
}

/** `child` equals `parent` or lies below it (the shared rule of ../../api/insideWorkspace). */
export const isInside = sharedIsInside;

async function candidatesFor(
  wanted: string,
  roots: readonly WorkspaceRoot[],
): Promise<{ absolute: string; root: WorkspaceRoot }[]> {
  if (path.isAbsolute(wanted) || /^[a-zA-Z]:\//.test(wanted)) {
    const abs = path.resolve(wanted);
    const root = roots.find((r) => isInside(path.resolve(r.path), abs));
    if (root) return [{ absolute: abs, root }];
    // An absolute path may also reach a root through a symlinked prefix (macOS /tmp -> /private/tmp).
    for (const r of roots) {
      const realRoot = await realpathOrSelf(r.path);
      if (isInside(realRoot, abs))
        return [{ absolute: path.join(path.resolve(r.path), path.relative(realRoot, abs)), root: r }];
    }
    return [];
  }
  const out: { absolute: string; root: WorkspaceRoot }[] = [];
  if (roots.length > 1) {
    const [head, ...rest] = wanted.split('/');
    const named = roots.find((r) => r.name === head);
    if (named) out.push({ absolute: path.resolve(named.path, rest.join('/') || '.'), root: named });
  }
  for (const r of roots) out.push({ absolute: path.resolve(r.path, wanted), root: r });
  return out;
}

async function check(requested: string, absolute: string, root: WorkspaceRoot): Promise<ResolvedPath> {
  const rootAbs = path.resolve(root.path);
  if (!isInside(rootAbs, absolute)) {
    throw new ToolPathError(
      `"${requested}" leaves the workspace folder ("..") and is refused. Only files inside the workspace can be used.`,
    );
  }
  const relative = path.relative(rootAbs, absolute).split(path.sep).join('/');
  const alias = windowsAliasSegment(relative);
  if (alias !== undefined) {
    throw new ToolPathError(
      `"${requested}" has a path segment "${alias}" that Windows reads as another name (a trailing dot or space, an 8.3 short name such as PROGRA~1, or a ":" alternate data stream), so it is refused: it could reach a protected file such as .git. Use the plain name of the file.`,
    );
  }
  const lexicalHit = protectedSegment(relative);
  if (lexicalHit) throw protectedError(requested, lexicalHit);

  const realRoot = await realpathOrSelf(rootAbs);
  const { real, exists: found } = await realpathAllowMissing(absolute);
  if (!isInside(realRoot, real)) {
    throw new ToolPathError(
      `"${requested}" goes through a symbolic link that points outside the workspace (to ${real}) and is refused.`,
    );
  }
  const realHit = protectedSegment(path.relative(realRoot, real));
  if (realHit) throw protectedError(requested, realHit);
  const realRelative = path.relative(realRoot, real).split(path.sep).join('/');
  return { absolute, real, root, relative, exists: found, realRelative };
}

function protectedError(requested: string, dir: string): ToolPathError {
  return new ToolPathError(
    `"${requested}" is inside ${dir}/, which tools may not read or change (it holds version-control internals or editor settings that can run code).`,
  );
}

/** The shared rule's resolution, with its loop error worded for the model. */
async function realpathAllowMissing(p: string): Promise<{ real: string; exists: boolean }> {
  try {
    return await sharedRealpathAllowMissing(p);
  } catch (e) {
    if (e instanceof LinkLoopError) throw new ToolPathError(`"${p}" goes through a loop of symbolic links.`);
    throw e;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
