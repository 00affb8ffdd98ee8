/**
 * Markdown code fences for text we did not write (a file, a rules file, a tool's output): the
 * fence is one backtick longer than the longest run inside the text, so nothing in it can close
 * the block early and let the rest read as instructions or markup.
 */

/** A backtick fence that no run of backticks inside `text` can close (three at least). */
export function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** `text` as a fenced block with `info` (a language) after the opening fence; one final newline dropped. */
export function fenced(text: string, info = ''): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text.replace(/\n$/, '')}\n${fence}`;
}
