/**
 * The local links of a rules or instructions file (`[guide](../docs/guide.md)`, `[x](file:///etc/passwd)`),
 * with their lines. The chat does not follow them (the model may read an inside file with its
 * tools); the Customizations list judges each by the one inside-the-workspace rule
 * (src/files/insideWorkspace.ts) and names those that lead out. Web links and anchors are no files;
 * links inside code fences are examples, not links.
 */
export interface MarkdownLink {
  /** The path as written, without `#fragment` or `?query`, percent-decoded; or a `file:` URI. */
  readonly target: string;
  /** 1-based line in the file. */
  readonly line: number;
}

const LINK = /!?\[[^\]\n]*\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+["'(][^)]*)?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Longer lines are not searched (a minified blob is no prose with links). */
const MAX_LINE = 4000;

export function markdownLinks(text: string): MarkdownLink[] {
  const out: MarkdownLink[] = [];
  let fence: string | undefined;
  text.split(/\r?\n/).forEach((l, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (f) {
      if (!fence) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      return;
    }
    if (fence || l.length > MAX_LINE) return;
    for (const m of l.matchAll(LINK)) {
      const raw = (m[1] ?? m[2])!;
      if (raw.startsWith('#')) continue;
      if (SCHEME.test(raw) && !/^file:/i.test(raw)) continue;
      const bare = /^file:/i.test(raw) ? raw : raw.replace(/[?#].*$/, '');
      let target = bare;
      try {
        target = decodeURIComponent(bare);
      } catch {
        // A stray % is part of the name.
      }
      if (target) out.push({ target, line: i + 1 });
    }
  });
  return out;
}
