/**
 * Long lists (chat history, video gallery) mount in steps: the first screenful at once, then a
 * step more after each painted frame until every row is in. A list of 500 then opens at the cost
 * of its first 40 rows, and every row still ends up in the DOM (find in page, screen readers and
 * the roving keys see the whole list a few frames later).
 */
import { useEffect, useState } from 'preact/hooks';

/** Rows mounted in the first frame: more than fit on any panel's screen. */
export const FIRST_ROWS = 40;
/** Rows added per frame after that. */
export const STEP_ROWS = 120;

/**
 * How many of `total` rows to render now. `key` names the list's content (a filter, a search):
 * when it changes, the count starts over at the first screenful. `all` asks for every row at once
 * (a key press that goes to the end).
 */
export function useRevealed(total: number, key: unknown): { shown: number; all: () => void } {
  const [state, setState] = useState({ key, n: FIRST_ROWS });
  const n = state.key === key ? state.n : FIRST_ROWS;
  useEffect(() => {
    if (n >= total) return;
    // A timeout set in an animation frame runs after that frame is painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setState({ key, n: n + STEP_ROWS }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [key, n, total]);
  return { shown: Math.min(n, total), all: () => setState({ key, n: Number.POSITIVE_INFINITY }) };
}
