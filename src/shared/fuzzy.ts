/**
 * A compact fuzzy scorer for the @-picker, shared by the host (which filters thousands of paths)
 * and the webview (which re-ranks the rows it has at every keystroke, before the host answers).
 * Written here rather than taken from a library: the picker needs only subsequence matching with
 * a few bonuses, and the webview bundle has a size budget.
 *
 * A query matches when its characters appear in order in the text (case-insensitive). Matches
 * score higher at word starts (after `/`, `.`, `-`, `_`, space, or a lower-to-upper change),
 * in a run of consecutive characters, and inside the last path segment (the file name).
 */

const SEPARATORS = new Set(['/', '\\', '.', '-', '_', ' ', ':']);

/**
 * A text prepared once for many queries: its lower case, where its file name starts, and which
 * characters it holds ({@link charMask}), so that most rows a query cannot match cost one AND.
 */
export interface FuzzyTarget {
  text: string;
  lower: string;
  nameStart: number;
  mask: number;
}

/**
 * One bit per letter, five for the digits, one for everything else: a text holds every character
 * of a query only if its mask holds the query's (the converse need not be true).
 */
export function charMask(lower: string): number {
  let m = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    m |= c >= 97 && c <= 122 ? 1 << (c - 97) : c >= 48 && c <= 57 ? 1 << (26 + ((c - 48) % 5)) : 1 << 31;
  }
  return m;
}

export function fuzzyTarget(text: string): FuzzyTarget {
  const lower = text.toLowerCase();
  return {
    text,
    lower,
    nameStart: Math.max(lower.lastIndexOf('/'), lower.lastIndexOf('\\')) + 1,
    mask: charMask(lower),
  };
}

/** A query as the scorer compares it: lower case, without white space. */
export function fuzzyNormalize(query: string): string {
  return query.toLowerCase().replace(/\s+/g, '');
}

/** The score of `query` against `text`, or -1 when it does not match. An empty query scores 0. */
export function fuzzyScore(query: string, text: string): number {
  return fuzzyScorePrepared(fuzzyNormalize(query), fuzzyTarget(text));
}

/** {@link fuzzyScore} for a query already normalised and a prepared text (the host's index). */
export function fuzzyScorePrepared(q: string, t: FuzzyTarget, qMask = charMask(q)): number {
  if (q === '') return 0;
  const { text, lower, nameStart, mask } = t;
  if ((mask & qMask) !== qMask) return -1;
  // A plain substring of the file name beats any scattered match.
  const inName = lower.indexOf(q, nameStart);
  if (inName >= 0) return 1000 + (inName === nameStart ? 200 : 0) - (lower.length - nameStart);
  let score = 0;
  let ti = 0;
  let run = 0;
  for (let qi = 0; qi < q.length; qi++) {
    const found = lower.indexOf(q[qi] as string, ti);
    if (found < 0) return -1;
    run = found === ti && qi > 0 ? run + 1 : 0;
    const prev = found > 0 ? text[found - 1] : '/';
    const cur = text[found] ?? '';
    const wordStart =
      prev === undefined || SEPARATORS.has(prev) || (prev === prev.toLowerCase() && cur !== cur.toLowerCase());
    score += 1 + run * 5 + (wordStart ? 8 : 0) + (found >= nameStart ? 3 : 0);
    ti = found + 1;
  }
  // Shorter texts first among equal matches.
  return score - lower.length / 100;
}

/** The items that match, best first; ties keep their order. */
export function fuzzyFilter<T>(query: string, items: readonly T[], text: (item: T) => string, limit = 50): T[] {
  const scored: { item: T; score: number; i: number }[] = [];
  items.forEach((item, i) => {
    const score = fuzzyScore(query, text(item));
    if (score >= 0) scored.push({ item, score, i });
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, limit).map((s) => s.item);
}
