/**
 * Roving tabindex for lists (chat history, video gallery): one row is in the Tab order, and the
 * arrow keys, Home and End move between rows, as in VS Code's own lists.
 */

/** Where the key moves from row `i` of `n`; undefined for keys that do not move. */
export function rovingIndex(key: string, i: number, n: number): number | undefined {
  if (n === 0) return undefined;
  if (key === 'ArrowDown') return Math.min(n - 1, i + 1);
  if (key === 'ArrowUp') return Math.max(0, i - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return n - 1;
  return undefined;
}
