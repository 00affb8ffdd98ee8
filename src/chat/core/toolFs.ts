import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROTECTED_DIRS, type ResolvedPath, type WorkspaceRoot } from './toolPaths';
import { ToolError } from './toolRunner';

/**
 * File-system work of the read-only tools, without VS Code: reading with limits and line ranges,
 * listing, glob search and text search. Every walk skips `.git`, `.vscode` and (unless asked
 * for) `node_modules`, never follows a symlinked folder (it could lead out of the workspace or
 * into a loop), and stops at fixed limits so a huge repository cannot stall the chat.
 */

/** Files larger than this are not read at all (use a line range or search_text). */
export const MAX_READ_BYTES = 2 * 1024 * 1024;
/** Characters returned by one read at most (below the runner's 40 000 cut). */
export const MAX_READ_CHARS = 30_000;
/** Lines returned when no range is given. */
export const DEFAULT_READ_LINES = 2000;
/** Entries looked at by one walk before it stops and says so. */
export const MAX_WALK_ENTRIES = 50_000;
/** Files larger than this are skipped by search_text. */
const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
/** Longest line kept in a search hit. */
const MAX_HIT_LINE = 300;

const SKIP_DIRS = new Set([...PROTECTED_DIRS, 'node_modules'].map((d) => d.toLowerCase()));

export interface ReadOptions {
  /** 1-based first line (default 1). */
  startLine?: number;
  /** 1-based last line, inclusive (default: start + {@link DEFAULT_READ_LINES} - 1). */
  endLine?: number;
  /** Text from an open editor, which wins over the disk (it is what the user sees, unsaved edits included). */
  editorText?: string;
}

/** Reads a file (or a line range of it) for the model, with a header saying what was shown. */
export async function readFileForModel(file: ResolvedPath, opts: ReadOptions = {}): Promise<string> {
  let text = opts.editorText;
  if (text === undefined) {
    if (!file.exists)
      throw new ToolError(
        `The file "${file.relative}" does not exist. Use list_directory or find_files to find the right path.`,
      );
    const stat = await fs.stat(file.absolute);
    if (stat.isDirectory())
      throw new ToolError(`"${file.relative}" is a folder, not a file. Use list_directory to see what is inside.`);
    if (stat.size > MAX_READ_BYTES) {
      throw new ToolError(
        `"${file.relative}" is ${(stat.size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_READ_BYTES / 1024 / 1024} MB read limit. Use search_text to find the part you need.`,
      );
    }
    const buf = await fs.readFile(file.absolute);
    if (looksBinary(buf))
      throw new ToolError(`"${file.relative}" is a binary file (${buf.length} bytes) and cannot be shown as text.`);
    text = buf.toString('utf8');
  }
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  const start = opts.startLine ?? 1;
  if (start < 1) throw new ToolError('startLine must be 1 or more.');
  if (total === 0 || (total === 1 && lines[0] === '')) return `File ${file.relative} is empty.`;
  if (start > total)
    throw new ToolError(`startLine ${start} is past the end of "${file.relative}", which has ${total} lines.`);
  const requestedEnd = opts.endLine ?? start + DEFAULT_READ_LINES - 1;
  if (requestedEnd < start) throw new ToolError(`endLine (${requestedEnd}) is before startLine (${start}).`);
  let end = Math.min(requestedEnd, total);
  // Stop at a line boundary before the character budget, so the header tells the truth about
  // which lines were shown (a cut in the middle would leave the model guessing).
  let chars = 0;
  for (let i = start - 1; i < end; i++) {
    chars += (lines[i] ?? '').length + 1;
    if (chars > MAX_READ_CHARS && i > start - 1) {
      end = i;
      break;
    }
  }
  const body = lines.slice(start - 1, end).join('\n');
  const more = end < total ? ` (the file continues to line ${total}; read more with startLine ${end + 1})` : '';
  return `File ${file.relative}, lines ${start}-${end} of ${total}${more}:\n${body}`;
}

/** A folder's entries, folders first with a trailing `/`. */
export async function listDirectoryForModel(dir: ResolvedPath, maxEntries = 500): Promise<string> {
  if (!dir.exists) throw new ToolError(`The folder "${dir.relative || '.'}" does not exist.`);
  const stat = await fs.stat(dir.absolute);
  if (!stat.isDirectory()) throw new ToolError(`"${dir.relative}" is a file, not a folder. Use read_file to read it.`);
  const entries = await fs.readdir(dir.absolute, { withFileTypes: true });
  const shown = entries
    .filter((e) => !PROTECTED_DIRS.some((p) => p.toLowerCase() === e.name.toLowerCase()))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name} (symlink)` : e.name))
    .sort((a, b) => Number(b.endsWith('/')) - Number(a.endsWith('/')) || a.localeCompare(b));
  const label = dir.relative || '.';
  if (shown.length === 0) return `Folder ${label} is empty.`;
  const cut = shown.length > maxEntries ? `\n… and ${shown.length - maxEntries} more entries` : '';
  return `Folder ${label} (${shown.length} entries):\n${shown.slice(0, maxEntries).join('\n')}${cut}`;
}

/** A compiled glob; `test` takes a `/`-separated relative path. */
export interface Glob {
  test(path: string): boolean;
}

type GlobToken =
  { k: 'lit'; c: string } | { k: 'one' } | { k: 'star' } | { k: 'any' } | { k: 'anydirs' } | { k: 'class'; re: RegExp };

/** Most alternatives `{a,b}` may expand to. */
const MAX_GLOB_EXPANSIONS = 64;

/**
 * Compiles a glob over `/`-separated relative paths, case-insensitively. `**` crosses folders,
 * `*` and `?` do not, `{a,b}` alternates, `[...]` is a character class. A pattern without `/`
 * matches file names at any depth (`*.ts`), which is what models mean by it.
 *
 * Matching is a memoised walk over (pattern position, path position), not a regular expression:
 * the pattern comes from the model, and a regex built from `*a*a*a*a*b` backtracks for ever.
 */
export function compileGlob(glob: string): Glob {
  let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!g.includes('/') && !g.startsWith('**')) g = `**/${g}`;
  const alternatives = expandBraces(g, glob).map(tokenize);
  return { test: (p) => alternatives.some((t) => matchTokens(t, p.toLowerCase())) };
}

function expandBraces(g: string, original: string): string[] {
  const open = g.indexOf('{');
  if (open < 0) {
    if (g.includes('}')) throw new ToolError(`The glob "${original}" has a "}" without "{".`);
    return [g];
  }
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < g.length; i++) {
    const c = g[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      close = i;
      break;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) throw new ToolError(`The glob "${original}" has an unclosed "{".`);
  const cuts = [open, ...commas, close];
  const head = g.slice(0, open);
  const tail = g.slice(close + 1);
  const out: string[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    for (const e of expandBraces(head + g.slice((cuts[i] ?? 0) + 1, cuts[i + 1]) + tail, original)) {
      out.push(e);
      if (out.length > MAX_GLOB_EXPANSIONS)
        throw new ToolError(
          `The glob "${original}" expands to more than ${MAX_GLOB_EXPANSIONS} alternatives; simplify it.`,
        );
    }
  }
  return out;
}

function tokenize(g: string): GlobToken[] {
  const out: GlobToken[] = [];
  const push = (t: GlobToken) => {
    const prev = out[out.length - 1];
    // Runs of wildcards mean the same as one and would only multiply the work.
    if (prev && (t.k === 'star' || t.k === 'any' || t.k === 'anydirs') && prev.k === t.k) return;
    out.push(t);
  };
  for (let i = 0; i < g.length; i++) {
    const c = g.charAt(i);
    if (c === '*') {
      let j = i;
      while (g[j + 1] === '*') j++;
      if (j > i) {
        if (g[j + 1] === '/') {
          push({ k: 'anydirs' });
          i = j + 1;
        } else {
          push({ k: 'any' });
          i = j;
        }
      } else push({ k: 'star' });
    } else if (c === '?') push({ k: 'one' });
    else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      if (close < 0) push({ k: 'lit', c: '[' });
      else {
        let cls = g.slice(i + 1, close);
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        try {
          push({ k: 'class', re: new RegExp(`^[${cls.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}]$`, 'i') });
        } catch {
          throw new ToolError(`The glob "${g}" has an invalid character class [${g.slice(i + 1, close)}].`);
        }
        i = close;
      }
    } else push({ k: 'lit', c: c.toLowerCase() });
  }
  return out;
}

function matchTokens(t: readonly GlobToken[], s: string): boolean {
  const T = t.length;
  const L = s.length;
  // 0 unknown, 1 no, 2 yes, per (token, offset).
  const memo = new Uint8Array((T + 1) * (L + 1));
  const m = (ti: number, si: number): boolean => {
    const key = ti * (L + 1) + si;
    const known = memo[key];
    if (known) return known === 2;
    let r: boolean;
    const tok = t[ti];
    if (!tok) r = si === L;
    else if (tok.k === 'lit') r = s[si] === tok.c && m(ti + 1, si + 1);
    else if (tok.k === 'one') r = si < L && s[si] !== '/' && m(ti + 1, si + 1);
    else if (tok.k === 'class') r = si < L && s[si] !== '/' && tok.re.test(s.charAt(si)) && m(ti + 1, si + 1);
    else if (tok.k === 'star') r = m(ti + 1, si) || (si < L && s[si] !== '/' && m(ti, si + 1));
    else if (tok.k === 'any') r = m(ti + 1, si) || (si < L && m(ti, si + 1));
    else {
      // `**/`: nothing, or anything that ends with a `/`.
      r = m(ti + 1, si);
      for (let j = si; !r && j < L; j++) if (s[j] === '/') r = m(ti + 1, j + 1);
    }
    memo[key] = r ? 2 : 1;
    return r;
  };
  return m(0, 0);
}

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
}

/** Every file under the roots, breadth-first, with the skip rules and limits described above. */
export async function walkFiles(
  roots: readonly WorkspaceRoot[],
  opts: {
    includeNodeModules?: boolean;
    accept?: (rel: string) => boolean;
    maxFiles?: number;
    signal?: AbortSignal;
  } = {},
): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const maxFiles = opts.maxFiles ?? Number.POSITIVE_INFINITY;
  let seen = 0;
  for (const root of roots) {
    const queue: string[] = [''];
    while (queue.length) {
      if (opts.signal?.aborted) return { files, truncated: 'stopped' };
      const rel = queue.shift() ?? '';
      let entries: Dirent[];
      try {
        entries = await fs.readdir(path.join(root.path, rel), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (++seen > MAX_WALK_ENTRIES) return { files, truncated: `looked at ${MAX_WALK_ENTRIES} entries` };
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          const lower = e.name.toLowerCase();
          if (SKIP_DIRS.has(lower) && !(lower === 'node_modules' && opts.includeNodeModules)) continue;
          queue.push(childRel);
        } else if (e.isFile()) {
          // Symlinks are skipped (isFile is false for them): read_file can still open one after its own check.
          if (opts.accept && !opts.accept(childRel)) continue;
          files.push({
            root,
            display: roots.length > 1 ? `${root.name}/${childRel}` : childRel,
            absolute: path.join(root.path, childRel),
          });
          if (files.length >= maxFiles) return { files, truncated: `reached ${maxFiles} results` };
        }
      }
    }
  }
  return { files };
}

/** find_files: paths matching a glob. */
export async function findFilesForModel(
  roots: readonly WorkspaceRoot[],
  pattern: string,
  maxResults = 200,
  signal?: AbortSignal,
): Promise<string> {
  if (pattern.trim() === '') throw new ToolError('The glob pattern is empty. Example: "src/**/*.ts".');
  const re = compileGlob(pattern);
  const r = await walkFiles(roots, {
    accept: (rel) => re.test(rel),
    maxFiles: maxResults,
    includeNodeModules: /node_modules/.test(pattern),
    ...(signal ? { signal } : {}),
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
  const walk = await walkFiles(roots, {
    ...(include ? { accept: (rel: string) => include.test(rel) } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
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
  const note = stopped ? `\n… search stopped early (${stopped}); narrow the query or the include glob.` : '';
  if (r.hits.length === 0) return `No matches for ${label} in ${r.filesSearched} file(s).${note}`;
  return `${r.hits.length} match(es) for ${label}:\n${r.hits.join('\n')}${note}`;
}

interface MatchJob {
  source: string;
  flags: string;
  files: { display: string; absolute: string }[];
  max: number;
  maxFileBytes: number;
  maxLine: number;
  maxHitLine: number;
}

/*
 * The matching runs in a worker thread because the pattern comes from the model: a regular
 * expression with catastrophic backtracking (`(a+)+$`) would otherwise freeze the whole extension
 * host, and search_text may be "always allowed". The worker streams hits back and is terminated
 * when the time budget runs out or the user stops; what it found so far is kept.
 */
const MATCH_WORKER = `
const { parentPort, workerData: j } = require('node:worker_threads');
const fs = require('node:fs');
const re = new RegExp(j.source, j.flags);
let hits = 0;
for (const f of j.files) {
  let buf;
  try {
    if (fs.statSync(f.absolute).size > j.maxFileBytes) continue;
    buf = fs.readFileSync(f.absolute);
  } catch { continue; }
  let binary = false;
  for (let i = 0, n = Math.min(buf.length, 8192); i < n; i++) if (buf[i] === 0) { binary = true; break; }
  if (binary) continue;
  parentPort.postMessage({ t: 'file' });
  const lines = buf.toString('utf8').split(/\\r?\\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].slice(0, j.maxLine);
    if (re.test(line)) {
      parentPort.postMessage({ t: 'hit', text: f.display + ':' + (i + 1) + ': ' + line.trim().slice(0, j.maxHitLine) });
      if (++hits >= j.max) { parentPort.postMessage({ t: 'end', why: 'reached ' + j.max + ' matches' }); process.exit(0); }
    }
  }
}
parentPort.postMessage({ t: 'end' });
`;

function matchInWorker(
  job: MatchJob,
  budgetMs: number,
  signal?: AbortSignal,
): Promise<{ hits: string[]; filesSearched: number; stopped?: string }> {
  return new Promise((resolve, reject) => {
    const hits: string[] = [];
    let filesSearched = 0;
    let stopped: string | undefined;
    const w = new Worker(MATCH_WORKER, { eval: true, workerData: job });
    const stop = (why: string) => {
      stopped ??= why;
      void w.terminate();
    };
    const timer = setTimeout(
      () => stop(`time limit of ${budgetMs / 1000} s reached; a simpler pattern may be faster`),
      budgetMs,
    );
    const onAbort = () => stop('stopped');
    signal?.addEventListener('abort', onAbort, { once: true });
    w.on('message', (m: { t: string; text?: string; why?: string }) => {
      if (m.t === 'hit' && m.text !== undefined && hits.length < job.max) hits.push(m.text);
      else if (m.t === 'file') filesSearched++;
      else if (m.t === 'end' && m.why) stopped ??= m.why;
    });
    w.on('error', (e) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    w.on('exit', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ hits, filesSearched, ...(stopped ? { stopped } : {}) });
    });
  });
}

/** A NUL byte in the first 8 KB: how git and most editors decide a file is binary. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}
