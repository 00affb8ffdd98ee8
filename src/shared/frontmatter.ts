/**
 * The YAML frontmatter that instructions, prompt files, skills and agent files open with (a `---`
 * line, YAML, a `---` line, then the Markdown body), as VS Code, Claude Code and Copilot read it.
 * The `yaml` package parses it: those tools accept full YAML (lists in flow or block style,
 * quoted strings, nested maps for `handoffs`), so a hand-written key/value reader would refuse
 * files that work elsewhere. Callers load this module on first use (the parser is not part of
 * activation). A parse error never throws: it comes back with its 1-based line in the file, so
 * the source list can show "parse error, line N" and the file's body still reads.
 */
import { LineCounter, parseDocument } from 'yaml';

export interface FrontmatterError {
  /** 1-based line in the whole file (the opening `---` is line 1). */
  readonly line: number;
  readonly message: string;
}

export interface Frontmatter {
  /** The top-level keys; empty when there is no frontmatter or it is not a map. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The Markdown after the closing `---` (the whole text when there is no frontmatter). */
  readonly body: string;
  /** 1-based line of the body's first line in the file. */
  readonly bodyLine: number;
  readonly errors: readonly FrontmatterError[];
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/** Splits and parses `text`; never throws. */
export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) return { attributes: {}, body: text.replace(/^\uFEFF/, ''), bodyLine: 1, errors: [] };
  const rest = text.slice(open[0].length);
  const close = closingFence(rest);
  if (!close) {
    return {
      attributes: {},
      body: text,
      bodyLine: 1,
      errors: [{ line: 1, message: 'frontmatter has no closing ---' }],
    };
  }
  const yamlText = rest.slice(0, close.index);
  const body = rest.slice(close.end);
  const bodyLine = 2 + countLines(rest.slice(0, close.end));
  const { attributes, errors } = parseYamlMap(yamlText);
  return { attributes, body, bodyLine, errors };
}

function closingFence(rest: string): { index: number; end: number } | undefined {
  // Multiline: the fence is a whole line of its own (an empty frontmatter closes at index 0).
  const found = CLOSE.exec(rest);
  if (!found) return undefined;
  let end = found.index + found[0].length;
  if (rest[end] === '\r') end++;
  if (rest[end] === '\n') end++;
  return { index: found.index, end };
}

function countLines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function parseYamlMap(yamlText: string): { attributes: Record<string, unknown>; errors: FrontmatterError[] } {
  if (!yamlText.trim()) return { attributes: {}, errors: [] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  // +1: the opening `---` is the file's first line.
  const errors: FrontmatterError[] = doc.errors.map((e) => ({
    line: lineCounter.linePos(e.pos[0]).line + 1,
    message: e.message.split('\n')[0] ?? e.message,
  }));
  if (errors.length) return { attributes: {}, errors };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    // yaml refuses alias expansion past the count (a "billion laughs" file).
    return { attributes: {}, errors: [{ line: 2, message: e instanceof Error ? e.message : String(e) }] };
  }
  if (value === null || value === undefined) return { attributes: {}, errors: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { attributes: {}, errors: [{ line: 2, message: 'frontmatter is not a map of keys' }] };
  }
  return { attributes: value as Record<string, unknown>, errors: [] };
}

/** A frontmatter value read as a list of strings: `a, b`, `[a, b]` or a YAML block list. */
export function stringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  if (Array.isArray(value)) {
    return value
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((v) => String(v).trim())
      .filter(Boolean);
  }
  return undefined;
}
