/**
 * @-mention attachments without VS Code: cutting content to its size limit, the labels chips and
 * the model see, and the text of the kinds built from lists (problems, folder listings). The view
 * side (`chat/view/mentions*.ts`) reads the workspace and hands the raw content here.
 */
import type { ContextAttachment, MentionKind } from '../../../shared/protocol';

/** At most this many characters of one attachment reach the model. */
export const ATTACHMENT_CHAR_LIMIT = 24_000;
/** At most this many characters of all of a message's attachments together. */
export const ATTACHMENTS_TOTAL_LIMIT = 96_000;
/** A folder listing names at most this many entries. */
export const FOLDER_ENTRY_LIMIT = 200;
/** A problems list names at most this many diagnostics. */
export const PROBLEM_LIMIT = 200;

export interface AttachmentSource {
  kind: MentionKind;
  label: string;
  path?: string;
  startLine?: number;
  endLine?: number;
  language?: string;
  note?: string;
}

/**
 * The attachment of `text`, cut at the last line break within `limit` characters (a whole line
 * reads better than half of one) when it is longer; `originalChars` keeps the full size.
 */
/** A mention that attaches no content, only the note that says why. */
export function noteOnly(item: { kind: MentionKind; label: string }, note: string, path?: string): ContextAttachment {
  return makeAttachment({ kind: item.kind, label: item.label, note, ...(path ? { path } : {}) }, '');
}

export function makeAttachment(src: AttachmentSource, text: string, limit = ATTACHMENT_CHAR_LIMIT): ContextAttachment {
  const a: ContextAttachment = { ...stripUndefined(src), text };
  if (text.length <= limit) return a;
  let cut = text.lastIndexOf('\n', limit);
  if (cut < limit / 2) cut = limit;
  return { ...a, text: text.slice(0, cut), truncated: true, originalChars: text.length };
}

/**
 * Shares the total budget among a message's attachments in order: each gets at most its own
 * limit and what the ones before it left, so one huge file cannot push the others out entirely
 * unless the budget is spent.
 */
export function withinBudget(items: ContextAttachment[], total = ATTACHMENTS_TOTAL_LIMIT): ContextAttachment[] {
  let left = total;
  return items.map((a) => {
    const allowed = Math.max(0, left);
    const next = a.text.length <= allowed ? a : recut(a, allowed);
    left -= next.text.length;
    return next;
  });
}

function recut(a: ContextAttachment, limit: number): ContextAttachment {
  const original = a.originalChars ?? a.text.length;
  const cut = makeAttachment(a, a.text, limit);
  return { ...cut, truncated: true, originalChars: original };
}

export interface ProblemEntry {
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2, hint: 3 } as const;

/** One line per diagnostic, errors first, then by file and line; at most {@link PROBLEM_LIMIT}. */
export function formatProblems(items: ProblemEntry[]): string {
  if (items.length === 0) return 'No problems.';
  const sorted = [...items].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.path.localeCompare(b.path) || a.line - b.line,
  );
  const lines = sorted
    .slice(0, PROBLEM_LIMIT)
    .map(
      (p) =>
        `${p.path}:${p.line}:${p.column} ${p.severity}${p.source ? ` (${p.source})` : ''}: ${p.message.replace(/\s*\n\s*/g, ' ')}`,
    );
  if (sorted.length > PROBLEM_LIMIT) lines.push(`… and ${sorted.length - PROBLEM_LIMIT} more.`);
  return lines.join('\n');
}

export interface FolderEntry {
  name: string;
  directory: boolean;
}

/** Folders first (with a trailing `/`), then files, by name; at most {@link FOLDER_ENTRY_LIMIT}. */
export function formatFolderListing(entries: FolderEntry[]): string {
  if (entries.length === 0) return '(empty folder)';
  const sorted = [...entries].sort((a, b) => Number(b.directory) - Number(a.directory) || a.name.localeCompare(b.name));
  const lines = sorted.slice(0, FOLDER_ENTRY_LIMIT).map((e) => (e.directory ? `${e.name}/` : e.name));
  if (sorted.length > FOLDER_ENTRY_LIMIT) lines.push(`… and ${sorted.length - FOLDER_ENTRY_LIMIT} more entries.`);
  return lines.join('\n');
}

/** The last command of a terminal and what it printed. */
export function formatTerminalOutput(commandLine: string, output: string, exitCode: number | undefined): string {
  // Shell integration's stream keeps the escape sequences the terminal drew with.
  // eslint-disable-next-line no-control-regex
  const clean = output.replace(/\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
  const exit = exitCode === undefined ? '' : ` (exit code ${exitCode})`;
  return `$ ${commandLine}${exit}\n${clean.replace(/\r\n?/g, '\n')}`;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
