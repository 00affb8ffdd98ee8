import type { MentionItem } from '../../../shared/protocol';
import { charMask, fuzzyNormalize, fuzzyScorePrepared, fuzzyTarget, type FuzzyTarget } from '../../../shared/fuzzy';

/**
 * The @-picker's files and folders, built once and then kept current by add/remove (the file
 * watcher), so a keystroke only scores rows: each label's lower case and file-name start are
 * computed once, and a query that extends the previous one scores only the previous matches (a
 * subsequence of the longer query is a subsequence of the shorter).
 */

interface Entry {
  item: MentionItem;
  target: FuzzyTarget;
}

interface FolderEntry extends Entry {
  /** Files below it in the index: it goes when the last one does. */
  files: number;
}

export interface FolderRow {
  /** Its label without the trailing slash (`src/chat`). */
  rel: string;
  ref: string;
}

export class PathIndex {
  private readonly files = new Map<string, Entry & { folders: string[] }>();
  private readonly folders = new Map<string, FolderEntry>();
  /** Changes with every add or remove, so a narrowed search never reuses a stale list. */
  private version = 0;
  private last: { query: string; version: number; matches: Entry[] } | undefined;
  private sorted: { version: number; items: MentionItem[] } | undefined;
  /** Every folder and file row, made once per change rather than per keystroke. */
  private rows: { version: number; entries: Entry[] } | undefined;

  get size(): number {
    return this.files.size;
  }

  /** Adds (or replaces) a file row and the folders above it. */
  add(item: MentionItem, folders: readonly FolderRow[]): void {
    if (!item.ref) return;
    const had = this.files.get(item.ref);
    if (had) this.drop(item.ref, had.folders);
    for (const f of folders) {
      const have = this.folders.get(f.rel);
      if (have) have.files += 1;
      else {
        const row: MentionItem = { kind: 'folder', label: `${f.rel}/`, ref: f.ref };
        this.folders.set(f.rel, { item: row, target: fuzzyTarget(row.label), files: 1 });
      }
    }
    this.files.set(item.ref, { item, target: fuzzyTarget(item.label), folders: folders.map((f) => f.rel) });
    this.version += 1;
  }

  /** Removes a file row, or every file under `ref` when it names a folder (`ref` + `/`). */
  remove(ref: string): void {
    const one = this.files.get(ref);
    if (one) return this.drop(ref, one.folders);
    const under = ref.endsWith('/') ? ref : `${ref}/`;
    for (const [key, e] of this.files) if (key.startsWith(under)) this.drop(key, e.folders);
  }

  private drop(ref: string, folders: readonly string[]): void {
    this.files.delete(ref);
    for (const rel of folders) {
      const f = this.folders.get(rel);
      if (f && --f.files <= 0) this.folders.delete(rel);
    }
    this.version += 1;
  }

  clear(): void {
    this.files.clear();
    this.folders.clear();
    this.version += 1;
  }

  /** Files in path order (the picker's rows for an empty query), sorted once per change. */
  first(limit: number): MentionItem[] {
    if (this.sorted?.version !== this.version)
      this.sorted = {
        version: this.version,
        items: [...this.files.values()].map((e) => e.item).sort((a, b) => a.label.localeCompare(b.label)),
      };
    return this.sorted.items.slice(0, limit);
  }

  private allRows(): Entry[] {
    if (this.rows?.version !== this.version)
      this.rows = { version: this.version, entries: [...this.folders.values(), ...this.files.values()] };
    return this.rows.entries;
  }

  /**
   * The best `limit` rows for `query` among `extra` (fixed kinds and open editors, first on ties)
   * and the index's folders and files.
   */
  search(query: string, extra: readonly MentionItem[], limit: number): MentionItem[] {
    const q = fuzzyNormalize(query);
    const narrowed =
      this.last && this.last.version === this.version && this.last.query !== '' && q.startsWith(this.last.query);
    const pool: Entry[] = narrowed && this.last ? this.last.matches : this.allRows();
    const matches: Entry[] = [];
    const top = new TopRows(limit);
    const qMask = charMask(q);
    extra.forEach((item, i) => top.offer(item, fuzzyScorePrepared(q, fuzzyTarget(item.label), qMask), i));
    const base = extra.length;
    for (let i = 0; i < pool.length; i++) {
      const e = pool[i] as Entry;
      const score = fuzzyScorePrepared(q, e.target, qMask);
      if (score < 0) continue;
      matches.push(e);
      top.offer(e.item, score, base + i);
    }
    this.last = { query: q, version: this.version, matches };
    return top.rows();
  }
}

/**
 * The best `limit` rows seen, best first, ties in the order offered: a one-letter query matches
 * nearly every row of a large workspace, and sorting all of them was most of that keystroke.
 */
class TopRows {
  private readonly kept: { item: MentionItem; score: number; i: number }[] = [];

  constructor(private readonly limit: number) {}

  offer(item: MentionItem, score: number, i: number): void {
    if (score < 0 || this.limit <= 0) return;
    const k = this.kept;
    if (k.length === this.limit && score <= (k[k.length - 1] as { score: number }).score) return;
    // Offered in order, so a row goes after every kept row of the same score.
    let at = k.length;
    while (at > 0 && (k[at - 1] as { score: number }).score < score) at--;
    k.splice(at, 0, { item, score, i });
    if (k.length > this.limit) k.pop();
  }

  rows(): MentionItem[] {
    return this.kept.map((r) => r.item);
  }
}
