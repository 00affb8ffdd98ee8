import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { compileGlob } from './glob';
import { matchInWorker } from './matchWorker';
import type { IgnoreCheck } from './ignore';
import { isSecretFile } from './protectedFiles';
import { PROTECTED_DIRS, type WorkspaceRoot } from './paths';
import { ToolError } from './runner';

/**
 * The walks of the read-only tools, without VS Code: find_files (glob) and search_text. Every walk
 * skips `.git`, `.vscode`, (unless asked for) `node_modules` and what the ignore check hides, never follows a symlinked folder
 * (it could lead out of the workspace or into a loop), and stops at fixed limits so a huge
 * repository cannot stall the chat.
 */

/** Entries looked at by one walk before it stops and says so. */
export const MAX_WALK_ENTRIES = 50_000;
/** Files larger than this are skipped by search_text. */
const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
/** Longest line kept in a search hit. */
const MAX_HIT_LINE = 300;

const SKIP_DIRS = new Set([...PROTECTED_DIRS, 'node_modules'].map((d) => d.toLowerCase()));

export interface WalkedFile {
  root: WorkspaceRoot;
  /** `/`-separated, relative to the root; prefixed with the root name in multi-root workspaces. */
  display: string;
  absolute: string;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Why the walk stopped early, if it did. */
  truncated?: string;
  /** Entries left out by the ignore check (a hidden folder counts once). */
  hidden: number;
}

/** Every file under the roots, breadth-first, with the skip rules and limits described above. */
export async function walkFiles(
  roots: readonly WorkspaceRoot[],
  opts: {
    includeNodeModules?: boolean;
    accept?: (rel: string) => boolean;
    maxFiles?: number;
    signal?: AbortSignal;
    /** `.gitignore` and `files.exclude` (see ./toolIgnore). */
    ignore?: IgnoreCheck;
  } = {},
): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const maxFiles = opts.maxFiles ?? Number.POSITIVE_INFINITY;
  let seen = 0;
  let hidden = 0;
  for (const root of roots) {
    const queue: string[] = [''];
    while (queue.length) {
      if (opts.signal?.aborted) return { files, truncated: 'stopped', hidden };
      const rel = queue.shift() ?? '';
      let entries: Dirent[];
      try {
        entries = await fs.readdir(path.join(root.path, rel), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (++seen > MAX_WALK_ENTRIES) return { files, truncated: `looked at ${MAX_WALK_ENTRIES} entries`, hidden };
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          const lower = e.name.toLowerCase();
          if (SKIP_DIRS.has(lower) && !(lower === 'node_modules' && opts.includeNodeModules)) continue;
          if (opts.ignore && (await opts.ignore(root, childRel))) {
            hidden++;
            continue;
          }
          queue.push(childRel);
        } else if (e.isFile()) {
          // Symlinks are skipped (isFile is false for them): read_file can still open one after its own check.
          // Ignored first: a gitignored .env is hidden, not counted among the skipped secret files.
          if (opts.ignore && (await opts.ignore(root, childRel))) {
            hidden++;
            continue;
          }
          if (opts.accept && !opts.accept(childRel)) continue;
          files.push({
            root,
            display: roots.length > 1 ? `${root.name}/${childRel}` : childRel,
            absolute: path.join(root.path, childRel),
          });
          if (files.length >= maxFiles) return { files, truncated: `reached ${maxFiles} results`, hidden };
        }
      }
    }
  }
  return { files, hidden };
}

/** find_files: paths matching a glob. */
export async function findFilesForModel(
  roots: readonly WorkspaceRoot[],
  pattern: string,
  maxResults = 200,
  signal?: AbortSignal,
  ignore?: IgnoreCheck,
): Promise<string> {
  if (pattern.trim() === '') throw new ToolError('The glob pattern is empty. Example: "src/**/*.ts".');
  const re = compileGlob(pattern);
  const r = await walkFiles(roots, {
    accept: (rel) => re.test(rel),
    maxFiles: maxResults,
    includeNodeModules: /node_modules/.test(pattern),
    ...(signal ? { signal } : {}),
    ...(ignore ? { ignore } : {}),
  });
  if (r.files.length === 0)
    return `No files match "${pattern}"${r.truncated ? ` (search stopped early: ${r.truncated})` : ''}.`;
  const note = r.truncated ? `\n… more may exist (search stopped: ${r.truncated}); narrow the pattern.` : '';
  return `${r.files.length} file(s) match "${pattern}":\n${r.files.map((f) => f.display).join('\n')}${note}`;
}

export interface SearchOptions {
  query: string;
  isRegex?: boolean;
  caseSensitive?: boolean;
  /** Glob limiting which files are searched. */
  include?: string;
  maxResults?: number;
  signal?: AbortSignal;
  /** Milliseconds after which the search stops and returns what it found (default 10 s). */
  budgetMs?: number;
  /** `.gitignore` and `files.exclude` (see ./toolIgnore). */
  ignore?: IgnoreCheck;
}

/** The search as a regular expression, or a {@link ToolError} saying why it is not one. */
export function searchPattern(o: Pick<SearchOptions, 'query' | 'isRegex' | 'caseSensitive'>): RegExp {
  if (o.query === '') throw new ToolError('The search text is empty.');
  try {
    return new RegExp(o.isRegex ? o.query : o.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), o.caseSensitive ? '' : 'i');
  } catch (e) {
    throw new ToolError(
      `The regular expression is invalid: ${e instanceof Error ? e.message : String(e)}. Fix it, or set isRegex to false to search for the literal text.`,
    );
  }
}

/** search_text: `path:line: text` for each matching line. */
export async function searchTextForModel(roots: readonly WorkspaceRoot[], o: SearchOptions): Promise<string> {
  const re = searchPattern(o);
  const include = o.include ? compileGlob(o.include) : undefined;
  const max = o.maxResults ?? 100;
  // Files that may hold secrets are not searched: search_text is often trusted, and a match
  // would put the secret's line into the result. The model is told how many were left out, and
  // read_file (which asks the user every time for such files) remains the way to them.
  let secrets = 0;
  const walk = await walkFiles(roots, {
    accept: (rel: string) => {
      if (include && !include.test(rel)) return false;
      if (!isSecretFile(rel)) return true;
      secrets++;
      return false;
    },
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.ignore ? { ignore: o.ignore } : {}),
  });
  const r = await matchInWorker(
    {
      source: re.source,
      flags: re.flags,
      files: walk.files.map((f) => ({ display: f.display, absolute: f.absolute })),
      max,
      maxFileBytes: MAX_SEARCH_FILE_BYTES,
      maxLine: 2000,
      maxHitLine: MAX_HIT_LINE,
    },
    o.budgetMs ?? 10_000,
    o.signal,
  );
  const stopped = r.stopped ?? walk.truncated;
  const label = o.isRegex ? `/${o.query}/` : `"${o.query}"`;
  const note =
    (stopped ? `\n… search stopped early (${stopped}); narrow the query or the include glob.` : '') +
    (secrets
      ? `\n(${secrets} file(s) that may hold secrets, such as .env or key files, were not searched; read_file asks the user before reading one.)`
      : '');
  if (r.hits.length === 0) return `No matches for ${label} in ${r.filesSearched} file(s).${note}`;
  return `${r.hits.length} match(es) for ${label}:\n${r.hits.join('\n')}${note}`;
}
