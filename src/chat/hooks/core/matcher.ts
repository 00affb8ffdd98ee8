/**
 * Claude Code's matcher rule: absent, `""` or `"*"` match everything; a value of only letters,
 * digits, `_` and `|` is an exact name or a `|` list of exact names (`Edit|Write`), case-sensitive;
 * anything else is an unanchored JavaScript regular expression (`Notebook.*`, `mcp__memory__.*`).
 * Tool events match the tool's names (ours and Claude Code's, see ./toolNames); SessionStart
 * matches its source, PreCompact its trigger; the other events ignore the matcher.
 */

export type MatcherCheck = { ok: true } | { ok: false; message: string };

const EXACT = /^[A-Za-z0-9_|]+$/;

/** Whether `matcher` is usable, with the reason when it is not (a broken regular expression). */
export function checkMatcher(matcher: string | undefined): MatcherCheck {
  if (matcher === undefined || matcher === '' || matcher === '*' || EXACT.test(matcher)) return { ok: true };
  try {
    new RegExp(matcher);
    return { ok: true };
  } catch (e) {
    return {
      ok: false,
      message: `The matcher "${matcher}" is not a valid regular expression: ${(e as Error).message}`,
    };
  }
}

/** Whether `matcher` selects any of `names`. A broken regular expression matches nothing. */
export function matches(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (EXACT.test(matcher)) {
    const wanted = matcher.split('|');
    return names.some((n) => wanted.includes(n));
  }
  let re: RegExp;
  try {
    re = new RegExp(matcher);
  } catch {
    return false;
  }
  return names.some((n) => re.test(n));
}
