/**
 * What find_files, search_text and list_directory leave out besides `.git` and `.vscode`: the
 * files the user's editor hides (`files.exclude`, handed over by the host) and what `.gitignore`
 * files ignore, as the @-mention picker does. Build output, vendored code and local secrets such
 * as `.env` (usually ignored) then do not reach the model through a broad search; read_file still
 * opens such a file when asked for it by path.
 */
import * as path from 'node:path';
import { gitignoreMatcher } from '../../../shared/gitignore';
import { compileGlob, type Glob } from './glob';
import { readRegularFile } from './fs';
import type { WorkspaceRoot } from './paths';

/** `.gitignore` files larger than this are not read (no real one comes close). */
const MAX_GITIGNORE_BYTES = 256 * 1024;

/** Whether a root-relative path (`/`-separated) is hidden. */
export type IgnoreCheck = (root: WorkspaceRoot, relative: string) => Promise<boolean>;

/**
 * The check for `roots`: `excludes(root)` gives the `files.exclude` patterns that are on for that
 * folder; `.gitignore` files are read from the root and from every folder on the way down (each
 * one's patterns relative to its folder), once per check.
 */
export function workspaceIgnore(
  roots: readonly WorkspaceRoot[],
  excludes: (root: WorkspaceRoot) => readonly string[],
): IgnoreCheck {
  // By path: hosts hand out new root objects on every roots() call.
  const globs = new Map<string, Glob[]>();
  const gitignores = new Map<string, Promise<((rel: string) => boolean) | undefined>>();
  for (const r of roots) globs.set(path.resolve(r.path), compileAll(excludes(r)));

  const gitignoreOf = (root: WorkspaceRoot, dirRel: string) => {
    const file = path.join(root.path, dirRel, '.gitignore');
    let found = gitignores.get(file);
    if (!found) {
      found = readRegularFile({ absolute: file, relative: '.gitignore' }, (size) =>
        size > MAX_GITIGNORE_BYTES ? 'too large' : undefined,
      ).then(
        (buf) => gitignoreMatcher(buf.toString('utf8')),
        () => undefined,
      );
      gitignores.set(file, found);
    }
    return found;
  };

  return async (root, relative) => {
    const rel = relative.replace(/\\/g, '/').replace(/^\/+/, '');
    if (rel === '') return false;
    if ((globs.get(path.resolve(root.path)) ?? []).some((g) => g.test(rel))) return true;
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dirRel = parts.slice(0, i).join('/');
      const matcher = await gitignoreOf(root, dirRel);
      if (matcher?.(parts.slice(i).join('/'))) return true;
    }
    return false;
  };
}

function compileAll(patterns: readonly string[]): Glob[] {
  const out: Glob[] = [];
  for (const p of patterns) {
    try {
      out.push(compileGlob(p.replace(/^\/+/, '')));
    } catch {
      // A pattern our glob does not understand hides nothing here (VS Code still applies it).
    }
  }
  return out;
}
