/**
 * What a completion request carries: the text around the cursor within a token budget, short
 * snippets of other files of the same language (recently edited or open), the file's path and
 * language, and whether one line or a block is wanted. The caller decides which files may be
 * read (workspace only, not excluded or ignored); this module only measures and cuts.
 */
import { redact } from '../../../shared/redact';

/** The document being typed in. */
export interface DocumentView {
  text: string;
  /** The cursor, as an offset into `text`. */
  offset: number;
  /** Workspace-relative path, `/`-separated. */
  path: string;
  languageId: string;
}

/** Another file of the same language; `focus` is where it was last edited (an offset), if known. */
export interface NeighbourFile {
  path: string;
  text: string;
  focus?: number;
}

export interface Snippet {
  path: string;
  text: string;
}

export interface CompletionContext {
  prefix: string;
  suffix: string;
  path: string;
  languageId: string;
  snippets: Snippet[];
  multiline: boolean;
}

/** Tokens the context may take (characters / 4): small, as completion must answer fast and cheap. */
export const DEFAULT_BUDGET_TOKENS = 2048;
const CHARS_PER_TOKEN = 4;
const SNIPPET_LINES = 16;
const MAX_SNIPPETS = 3;

/**
 * The context for `doc` at its cursor: 65% of the budget before the cursor, 20% after, the rest
 * for up to three snippets (about sixteen lines each, around each file's last edit). Text is cut
 * at line boundaries, and anything that looks like a remembered secret (the API key) is masked.
 */
export function assembleContext(
  doc: DocumentView,
  neighbours: readonly NeighbourFile[] = [],
  budgetTokens = DEFAULT_BUDGET_TOKENS,
): CompletionContext {
  const budget = budgetTokens * CHARS_PER_TOKEN;
  const before = doc.text.slice(0, doc.offset);
  const after = doc.text.slice(doc.offset);
  const prefix = tailLines(before, Math.floor(budget * 0.65));
  const suffix = headLines(after, Math.floor(budget * 0.2));
  let left = budget - prefix.length - suffix.length;
  const snippets: Snippet[] = [];
  for (const n of neighbours) {
    if (snippets.length >= MAX_SNIPPETS || left <= 0) break;
    if (n.path === doc.path || n.text.trim() === '') continue;
    const text = around(n.text, n.focus ?? 0, SNIPPET_LINES).slice(0, left);
    if (text.trim() === '') continue;
    snippets.push({ path: n.path, text: redact(text) });
    left -= text.length;
  }
  const linePrefix = before.slice(before.lastIndexOf('\n') + 1);
  const lineSuffix = after.split('\n')[0] ?? '';
  return {
    prefix: redact(prefix),
    suffix: redact(suffix),
    path: doc.path,
    languageId: doc.languageId,
    snippets,
    multiline: wantsBlock(linePrefix, lineSuffix),
  };
}

/**
 * A block when the cursor's line is empty so far, or ends with something that opens one (`{`,
 * `(`, `[`, `=>`, a Python block's `:`), and nothing but closing brackets follows on the line; one line otherwise.
 */
export function wantsBlock(linePrefix: string, lineSuffix: string): boolean {
  if (!/^[\s)\]};,]*$/.test(lineSuffix)) return false;
  const t = linePrefix.trimEnd();
  return (
    t.trim() === '' ||
    /(\{|\(|\[|=>)$/.test(t) ||
    /^\s*(async\s+def|def|class|if|elif|else|for|while|try|except|finally|with)\b.*:$/.test(t)
  );
}

/** The end of `text`, at most `max` characters, starting at a line start unless one line is longer. */
function tailLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : cut;
}

/** The start of `text`, at most `max` characters, ending at a line end unless one line is longer. */
function headLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const nl = cut.lastIndexOf('\n');
  return nl > 0 ? cut.slice(0, nl + 1) : cut;
}

/** About `lines` lines of `text` around `offset`. */
function around(text: string, offset: number, lines: number): string {
  const all = text.split('\n');
  const at = text.slice(0, Math.max(0, Math.min(offset, text.length))).split('\n').length - 1;
  const start = Math.max(0, Math.min(at - Math.floor(lines / 2), all.length - lines));
  return all
    .slice(start, start + lines)
    .map((l) => (l.length > 200 ? l.slice(0, 200) : l))
    .join('\n');
}
