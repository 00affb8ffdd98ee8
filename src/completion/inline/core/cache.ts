/**
 * Suggestions keyed by the text before the cursor: when the user types characters the suggestion
 * already holds, the rest of it is offered again without a request. The text after the cursor
 * must be unchanged too, or the suggestion was made for another place.
 */

interface Entry {
  doc: string;
  /** Length of the prefix the suggestion was made for. */
  at: number;
  /** The prefix's last characters (enough to tell two places apart; not the whole file). */
  tail: string;
  /** The suffix's first characters. */
  head: string;
  text: string;
}

const TAIL = 400;
const HEAD = 200;

export class SuggestionCache {
  private entries: Entry[] = [];

  constructor(private readonly max = 64) {}

  put(doc: string, prefix: string, suffix: string, text: string): void {
    this.entries = this.entries.filter((e) => !(e.doc === doc && e.at === prefix.length));
    this.entries.push({ doc, at: prefix.length, tail: prefix.slice(-TAIL), head: suffix.slice(0, HEAD), text });
    if (this.entries.length > this.max) this.entries.shift();
  }

  /**
   * The rest of a cached suggestion whose beginning the user has since typed (or the whole of one
   * made for exactly this place); undefined when none fits.
   */
  get(doc: string, prefix: string, suffix: string): string | undefined {
    const head = suffix.slice(0, HEAD);
    for (let k = this.entries.length - 1; k >= 0; k--) {
      const e = this.entries[k]!;
      if (e.doc !== doc || e.head !== head || prefix.length < e.at) continue;
      const typed = prefix.slice(e.at);
      if (typed.length >= e.text.length || !e.text.startsWith(typed)) continue;
      if (prefix.slice(Math.max(0, e.at - TAIL), e.at) !== e.tail) continue;
      return e.text.slice(typed.length);
    }
    return undefined;
  }

  /** Forgets a document's suggestions (closed, or changed elsewhere than at the cursor). */
  forget(doc: string): void {
    this.entries = this.entries.filter((e) => e.doc !== doc);
  }

  clear(): void {
    this.entries = [];
  }
}
