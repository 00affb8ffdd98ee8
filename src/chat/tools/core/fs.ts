import { constants as fsConstants, promises as fs, type Dirent, type Stats } from 'node:fs';
import type { IgnoreCheck } from './ignore';
import { PROTECTED_DIRS, type ResolvedPath } from './paths';
import { ToolError } from './runner';

/**
 * File reading of the read-only tools, without VS Code: a file with limits and line ranges, and a
 * folder's listing. The walks (find_files, search_text) are in ./toolSearch.
 */

/** Files larger than this are not read at all (use a line range or search_text). */
export const MAX_READ_BYTES = 2 * 1024 * 1024;
/** Characters returned by one read at most (below the runner's 40 000 cut). */
export const MAX_READ_CHARS = 30_000;
/** Lines returned when no range is given. */
export const DEFAULT_READ_LINES = 2000;

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
    const buf = await readRegularFile(file, (size) =>
      size > MAX_READ_BYTES
        ? `"${file.relative}" is ${(size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_READ_BYTES / 1024 / 1024} MB read limit. Use search_text to find the part you need.`
        : undefined,
    );
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

/** Non-blocking, so opening a FIFO returns at once instead of waiting for a writer. */
const OPEN_READ = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

/**
 * The bytes of a regular file. A FIFO, socket or device is refused: reading a FIFO waits for a
 * writer for ever (the tool would hang), and a device is no file of the project. The type is
 * checked before opening and again on the open handle, so a swap in between is caught too.
 * `tooBig` returns the refusal for a size over the caller's limit.
 */
export async function readRegularFile(
  file: Pick<ResolvedPath, 'absolute' | 'relative'>,
  tooBig: (size: number) => string | undefined,
): Promise<Buffer> {
  assertRegular(file, await fs.stat(file.absolute));
  const handle = await fs.open(file.absolute, OPEN_READ);
  try {
    const st = await handle.stat();
    assertRegular(file, st);
    const refusal = tooBig(st.size);
    if (refusal) throw new ToolError(refusal);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function assertRegular(file: Pick<ResolvedPath, 'relative'>, st: Stats): void {
  if (st.isDirectory())
    throw new ToolError(`"${file.relative}" is a folder, not a file. Use list_directory to see what is inside.`);
  if (!st.isFile())
    throw new ToolError(
      `"${file.relative}" is not a regular file (a pipe, socket or device), so tools do not read or write it.`,
    );
}

/**
 * Refuses a write that would reach further than the file named: a pipe, socket or device, or a
 * file with more than one hard link (another name of it may lie outside the workspace, and the
 * realpath check cannot see hard links). Nothing to check for a file that does not exist yet.
 */
export async function assertWritableFile(file: Pick<ResolvedPath, 'absolute' | 'relative'>): Promise<void> {
  let st: Stats;
  try {
    st = await fs.stat(file.absolute);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  assertRegular(file, st);
  if (st.nlink > 1)
    throw new ToolError(
      `"${file.relative}" has ${st.nlink} hard links: writing it would also change the same file under its other names, which may lie outside the workspace. Refused.`,
    );
}

/**
 * A folder's entries, folders first with a trailing `/`. Entries the ignore check hides
 * (`.gitignore`, `files.exclude`) are left out and counted, so the model knows they exist.
 */
export async function listDirectoryForModel(
  dir: ResolvedPath,
  maxEntries = 500,
  ignore?: IgnoreCheck,
): Promise<string> {
  if (!dir.exists) throw new ToolError(`The folder "${dir.relative || '.'}" does not exist.`);
  const stat = await fs.stat(dir.absolute);
  if (!stat.isDirectory()) throw new ToolError(`"${dir.relative}" is a file, not a folder. Use read_file to read it.`);
  const entries = await fs.readdir(dir.absolute, { withFileTypes: true });
  const visible: Dirent[] = [];
  let hidden = 0;
  for (const e of entries) {
    if (PROTECTED_DIRS.some((p) => p.toLowerCase() === e.name.toLowerCase())) continue;
    if (ignore && (await ignore(dir.root, dir.relative ? `${dir.relative}/${e.name}` : e.name))) hidden++;
    else visible.push(e);
  }
  const shown = visible
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name} (symlink)` : e.name))
    .sort((a, b) => Number(b.endsWith('/')) - Number(a.endsWith('/')) || a.localeCompare(b));
  const label = dir.relative || '.';
  const hiddenNote = hidden
    ? `${hidden} ${hidden === 1 ? 'entry' : 'entries'} hidden by .gitignore or files.exclude (read_file still opens one by path)`
    : '';
  if (shown.length === 0) return `Folder ${label} is empty${hiddenNote ? ` (${hiddenNote})` : ''}.`;
  const cut = shown.length > maxEntries ? `\n… and ${shown.length - maxEntries} more entries` : '';
  return `Folder ${label} (${shown.length} entries${hiddenNote ? `; ${hiddenNote}` : ''}):\n${shown.slice(0, maxEntries).join('\n')}${cut}`;
}

/** A NUL byte in the first 8 KB: how git and most editors decide a file is binary. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}
