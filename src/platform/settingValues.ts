/**
 * Pure helpers for reading settings (no `vscode` here, so they are testable in plain node).
 * package.json's `minimum`/`maximum` only guide the settings editor: a hand-edited settings.json
 * can hold `0`, a negative number or a string, which would poll in a tight loop or make every
 * request time out at once.
 */

/**
 * `value` as a number within `[min, max]` (rounded when `integer`); `fallback` when it is not a
 * finite number (a numeric string counts, as JSON users sometimes quote numbers).
 */
export function boundedNumber(value: unknown, fallback: number, min: number, max: number, integer = false): number {
  let n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return fallback;
  if (integer) n = Math.round(n);
  return Math.min(max, Math.max(min, n));
}
