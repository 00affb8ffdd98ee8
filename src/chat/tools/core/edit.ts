import { ToolError } from './runner';

/**
 * The text change of edit_file, computed before the user is asked: an exact, unique match of
 * `oldText` is replaced. Requiring a unique match (or an explicit `replaceAll`) keeps the model
 * from changing a place it did not mean; the errors say how to fix the call.
 */
export interface EditRequest {
  oldText: string;
  newText: string;
  replaceAll?: boolean;
}

/** Returns the new content, or throws a {@link ToolError} the model can act on. */
export function applyTextEdit(current: string, relative: string, edit: EditRequest): string {
  if (edit.oldText === '') {
    throw new ToolError(
      'oldText is empty. To create a file or replace all of its content use write_file; to edit, give the exact text to replace.',
    );
  }
  if (edit.oldText === edit.newText) throw new ToolError('oldText and newText are the same, so nothing would change.');
  // Files with CRLF line ends are matched with the model's LF text and keep their CRLF.
  const crlf = current.includes('\r\n');
  const norm = (s: string) => (crlf ? s.replace(/\r?\n/g, '\r\n') : s);
  const oldText = norm(edit.oldText);
  const newText = norm(edit.newText);
  const count = countOccurrences(current, oldText);
  if (count === 0) {
    const hint =
      current.includes(oldText.trim()) && oldText.trim() !== oldText
        ? ' (it matches when leading/trailing whitespace is ignored: copy the whitespace exactly)'
        : '';
    throw new ToolError(
      `oldText was not found in "${relative}"${hint}. Read the file again with read_file and copy the text exactly, including indentation.`,
    );
  }
  if (count > 1 && !edit.replaceAll) {
    throw new ToolError(
      `oldText occurs ${count} times in "${relative}". Include more surrounding lines so it is unique, or set replaceAll to true to change every occurrence.`,
    );
  }
  return edit.replaceAll ? current.split(oldText).join(newText) : current.replace(oldText, () => newText);
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** A compact unified-style summary (`-`/`+` lines around the change) for cards and tool results. */
export function summarizeChange(before: string, after: string, maxLines = 40): string {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const out: string[] = [`@@ line ${start + 1} @@`];
  for (const l of a.slice(start, endA + 1)) out.push(`-${l}`);
  for (const l of b.slice(start, endB + 1)) out.push(`+${l}`);
  if (out.length > maxLines)
    return [...out.slice(0, maxLines), `… ${out.length - maxLines} more changed lines`].join('\n');
  return out.join('\n');
}
