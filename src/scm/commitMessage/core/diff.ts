/**
 * A unified diff (`git diff` output) cut into its files, and reduced to fit a token budget: the
 * smaller files keep their full diff, the rest become one summary line each (status, lines added
 * and removed, the functions their hunks touch), so a large change still names every file.
 */

/** What happened to a file. */
export type FileStatus = 'added' | 'deleted' | 'renamed' | 'modified' | 'binary';

/** One file's part of a diff. */
export interface FileDiff {
  /** The path after the change (the new name of a rename). */
  path: string;
  /** The path before a rename. */
  oldPath?: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  /** The file's whole part of the diff, from its `diff --git` line. */
  text: string;
  /** Hunk headers' context (`@@ … @@ function name`), the functions the change touches. */
  contexts: string[];
}

/** A diff reduced to a budget. */
export interface FittedDiff {
  /** The full diffs kept, then the summary lines. */
  text: string;
  /** Files whose diff was replaced by a summary line. */
  summarised: string[];
  /** Files left out altogether because even their summary lines did not fit. */
  omitted: string[];
}

const QUOTED = /^"a\/((?:[^"\\]|\\.)*)" "b\/((?:[^"\\]|\\.)*)"$/;

/** Unescapes a quoted git path (`\"`, `\\`, `\t`; octal bytes are kept as written). */
function unquote(p: string): string {
  return p.replace(/\\(["\\])/g, '$1').replace(/\\t/g, '\t');
}

/**
 * The two paths of `diff --git a/x b/y`. Git quotes names with special characters but not
 * spaces, so `a/x y b/x y` is split where both halves name the same file; a rename's names are
 * corrected from its `rename from`/`rename to` lines.
 */
function headerPaths(rest: string): [string, string] {
  const q = QUOTED.exec(rest);
  if (q) return [unquote(q[1]!), unquote(q[2]!)];
  const mid = (rest.length - 1) / 2;
  if (Number.isInteger(mid) && rest.startsWith('a/') && rest.slice(mid, mid + 3) === ' b/') {
    const name = rest.slice(2, mid);
    if (name === rest.slice(mid + 3)) return [name, name];
  }
  const split = /^"?a\/(.*?)"? "?b\/(.*?)"?$/.exec(rest);
  return split ? [unquote(split[1]!), unquote(split[2]!)] : [rest, rest];
}

/** The files of a unified diff, in order. Text before the first `diff --git` line is ignored. */
export function parseDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | undefined;
  let lines: string[] = [];
  const close = (): void => {
    if (current) files.push({ ...current, text: lines.join('\n') });
  };
  for (const line of diff.replace(/\r\n/g, '\n').split('\n')) {
    if (line.startsWith('diff --git ')) {
      close();
      const [oldPath, path] = headerPaths(line.slice('diff --git '.length));
      current = { path, status: 'modified', additions: 0, deletions: 0, text: '', contexts: [] };
      if (oldPath !== path) current.oldPath = oldPath;
      lines = [line];
      continue;
    }
    if (!current) continue;
    lines.push(line);
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      current.status = 'renamed';
      current.oldPath = line.slice('rename from '.length);
    } else if (line.startsWith('rename to ')) current.path = line.slice('rename to '.length);
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') current.status = 'binary';
    else if (line.startsWith('@@')) {
      const ctx = /^@@[^@]*@@ ?(.*)$/.exec(line)?.[1]?.trim();
      if (ctx && !current.contexts.includes(ctx)) current.contexts.push(ctx);
    } else if (line.startsWith('+') && !line.startsWith('+++ ')) current.additions++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) current.deletions++;
  }
  close();
  // A trailing newline of the diff leaves an empty last line in the last file: drop it.
  const last = files.at(-1);
  if (last) last.text = last.text.replace(/\n+$/, '');
  return files;
}

/** The line above the summary lines, so the model reads them as files it has not seen whole. */
export const SUMMARY_HEADING = 'Summarised files (their diff was too large to send whole):';

/** How many hunk contexts a summary line names. */
const SUMMARY_CONTEXTS = 3;

/** One file as a summary line: `- path: modified, +12 -3 (in: function a, class B)`. */
export function summaryLine(f: FileDiff): string {
  const name = f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path;
  const counts = f.status === 'binary' ? '' : `, +${f.additions} -${f.deletions}`;
  const ctx = f.contexts.slice(0, SUMMARY_CONTEXTS).map((c) => (c.length > 60 ? `${c.slice(0, 59)}…` : c));
  return `- ${name}: ${f.status}${counts}${ctx.length ? ` (in: ${ctx.join('; ')})` : ''}`;
}

/**
 * The diff within `budget` tokens (as `estimate` counts them). Everything when it fits; else the
 * smallest files keep their full diff while room is left for a summary line of each other file,
 * which is then summarised. When even the summary lines do not fit, the last files are named
 * only in `omitted` (and counted in the text) rather than overflowing the model's window.
 */
export function fitDiff(files: FileDiff[], budget: number, estimate: (text: string) => number): FittedDiff {
  const whole = files.map((f) => f.text).join('\n');
  if (estimate(whole) <= budget) return { text: whole, summarised: [], omitted: [] };

  const summaries = files.map(summaryLine);
  const summaryCost = summaries.map((s) => estimate(s) + 1);
  const fullCost = files.map((f) => estimate(f.text) + 1);
  let room = budget - summaryCost.reduce((a, b) => a + b, 0);
  // Smallest first keeps the most files whole; a file kept whole no longer needs its summary line.
  const keep = new Set<number>();
  for (const i of files.map((_, i) => i).sort((a, b) => fullCost[a]! - fullCost[b]!)) {
    const extra = fullCost[i]! - summaryCost[i]!;
    if (extra > room) continue;
    room -= extra;
    keep.add(i);
  }
  const kept = files.filter((_, i) => keep.has(i)).map((f) => f.text);
  const summarised: string[] = [];
  const omitted: string[] = [];
  const lines: string[] = [];
  // Room for the summaries is there unless even they overflow: then the tail is left out.
  let left =
    budget -
    kept.reduce((n, t) => n + estimate(t) + 1, 0) -
    estimate(SUMMARY_HEADING + '\n- … and 99999 more files') -
    2;
  files.forEach((f, i) => {
    if (keep.has(i)) return;
    if (summaryCost[i]! <= left) {
      left -= summaryCost[i]!;
      lines.push(summaries[i]!);
      summarised.push(f.path);
    } else {
      omitted.push(f.path);
    }
  });
  if (omitted.length) lines.push(`- … and ${omitted.length} more files`);
  const text = [...kept, ...(lines.length ? [SUMMARY_HEADING, ...lines] : [])].join('\n');
  return { text, summarised, omitted };
}
