/**
 * Turns a model's answer into the text to insert at the cursor, or nothing. Chat models asked to
 * fill a hole make the same mistakes again and again: a fenced block, a sentence before the code,
 * the line before the cursor repeated, the code after the cursor repeated, the whole file sent
 * back, or more code than the block holds. Each is undone here; what cannot be made into a clean
 * insertion (prose only, an empty answer, a whole file that does not fit around the cursor) gives
 * no suggestion: a wrong ghost text costs the user more than none.
 */

export interface CleanInput {
  /** The model's answer, as received. */
  answer: string;
  /** The document's text before the cursor (as much as was sent, at least the current line). */
  prefix: string;
  /** The document's text after the cursor. */
  suffix: string;
  /** One line wanted (the cursor is inside a line's text), or a block. */
  multiline: boolean;
  /** Lines a block suggestion may have at most. */
  maxLines?: number;
}

const DEFAULT_MAX_LINES = 12;

/** Phrases chat models open an explanation with; a line that starts so is not code. */
const PROSE_OPENERS =
  /^(here('s| is| are)|sure\b|certainly\b|of course\b|the (missing|completed?|code|following|rest)\b|this (code|completes|will|function)\b|to (complete|fill|finish|implement)\b|i('ve| have| will| would|'ll)?\b|you can\b|below\b|okay\b|ok\b|note\b|explanation\b|output\b|answer\b|completion\b)/i;

/** The text to insert, or undefined when the answer should give no suggestion. */
export function cleanCompletion(i: CleanInput): string | undefined {
  let text = i.answer.replace(/\r\n/g, '\n');
  if (text.trim() === '') return undefined;
  text = stripMarkers(text);

  const fenced = fencedCode(text);
  if (fenced !== undefined) text = fenced;
  else {
    const code = dropProse(text);
    if (code === undefined) return undefined;
    text = code;
  }
  if (text.trim() === '') return undefined;

  const linePrefix = i.prefix.slice(i.prefix.lastIndexOf('\n') + 1);
  const placed = trimRepeatedPrefix(text, i.prefix, linePrefix);
  if (placed === undefined) return undefined;
  text = placed;
  text = trimRepeatedSuffix(text, i.suffix);
  if (!i.multiline) {
    text = text.replace(/^\n+/, '').split('\n')[0] ?? '';
    // What the rest of the line already says is not inserted twice.
    const lineRest = i.suffix.split('\n')[0] ?? '';
    if (lineRest.trim() !== '' && text.endsWith(lineRest.trim())) text = text.slice(0, -lineRest.trim().length);
  } else {
    text = cutAtBlockEnd(text, linePrefix, i.maxLines ?? DEFAULT_MAX_LINES);
  }
  text = text.replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
  if (text.trim() === '') return undefined;
  return text;
}

/** Infill markers a model echoes back (our own hole marker, and common FIM tokens). */
function stripMarkers(text: string): string {
  return text
    .replace(/<\|?(fim_(prefix|suffix|middle)|fim▁(begin|hole|end)|FILL_HERE|CURSOR|EOT|endoftext)\|?>/gi, '')
    .replace(/\{\{FILL_HERE\}\}/g, '');
}

/**
 * The code of the first fenced block, when the answer has one (the prose around it dropped); a
 * fence opened and never closed (the answer was cut by `max_tokens`) still yields its code.
 */
function fencedCode(text: string): string | undefined {
  const open = /(^|\n)[ \t]*(```+|~~~+)[^\n]*\n/.exec(text);
  if (!open) return undefined;
  const start = open.index + open[0].length;
  const fence = open[2]!;
  const close = new RegExp(`\\n[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*(\\n|$)`).exec(
    text.slice(start - 1),
  );
  return close ? text.slice(start, start - 1 + close.index) : text.slice(start);
}

/** Drops leading explanation lines; undefined when nothing after them looks like code. */
function dropProse(text: string): string | undefined {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && isProseLine(lines[first]!)) first++;
  if (first === lines.length) return undefined;
  // A single-line answer that reads as a sentence was prose all along.
  return lines.slice(first).join('\n');
}

function isProseLine(line: string): boolean {
  const t = line.trim();
  if (t === '') return false;
  if (PROSE_OPENERS.test(t)) return true;
  // A sentence: words and spaces, ending with a full stop or colon, no code punctuation.
  return /^[A-Z][a-z]+( [\w'’,-]+){3,}[.:!]$/.test(t) && !/[;{}()=<>[\]]/.test(t);
}

/**
 * Removes what the answer repeats of the text before the cursor: the whole prefix (a whole file
 * sent back), or the current line's text (models restate the line they continue). Undefined when
 * the answer restates earlier lines but does not line up with the cursor: a whole file we cannot
 * place.
 */
function trimRepeatedPrefix(text: string, prefix: string, linePrefix: string): string | undefined {
  if (prefix.length > 0 && text.startsWith(prefix)) return text.slice(prefix.length);
  const trimmedPrefix = prefix.trimStart();
  if (trimmedPrefix.length > 40 && text.trimStart().startsWith(trimmedPrefix))
    return text.trimStart().slice(trimmedPrefix.length);
  // The answer restates several lines before the current one: where it reaches the cursor's line,
  // the rest is the insertion.
  const before = prefix.split('\n');
  before.pop();
  const recent = before.filter((l) => l.trim().length >= 8).slice(-3);
  const firstLine = (text.split('\n')[0] ?? '').trim();
  if (recent.length > 0 && firstLine !== '' && before.some((l) => l.trim() === firstLine) && firstLine.length >= 8) {
    const lines = text.split('\n');
    const at = lines.findIndex(
      (l, k) => k > 0 && l.trimStart().startsWith(linePrefix.trim()) && linePrefix.trim() !== '',
    );
    if (at < 0) return undefined;
    text = lines.slice(at).join('\n');
  }
  if (linePrefix.trim() === '') {
    // At an indented empty line the answer's own indentation would be doubled.
    if (linePrefix.length > 0 && text.startsWith(linePrefix)) return text.slice(linePrefix.length);
    return text;
  }
  // The longest end of the current line that the answer starts with.
  for (let n = linePrefix.length; n > 0; n--) {
    const tail = linePrefix.slice(linePrefix.length - n);
    if (tail.trim().length < 2 && n !== linePrefix.length) break;
    if (text.startsWith(tail)) return text.slice(n);
    if (n === linePrefix.length && text.startsWith(tail.trimStart()) && tail.trimStart().length >= 2)
      return text.slice(tail.trimStart().length);
  }
  return text;
}

/** Removes the end of the answer that repeats what already follows the cursor. */
function trimRepeatedSuffix(text: string, suffix: string): string {
  const after = suffix.split('\n').map((l) => l.trim());
  const firstAfter = after.find((l) => l !== '');
  if (firstAfter === undefined) return text;
  const lines = text.split('\n');
  // The answer runs on into the code after the cursor: cut where it starts repeating it (two
  // lines in a row, or one distinctive line, so a lone `}` is not taken for the suffix's).
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k]!.trim();
    if (l === '' || l !== firstAfter) continue;
    const next = lines
      .slice(k + 1)
      .find((x) => x.trim() !== '')
      ?.trim();
    const nextAfter = after.slice(after.indexOf(firstAfter) + 1).find((x) => x !== '');
    const distinctive = l.length >= 6;
    if (k > 0 && (distinctive || next === undefined || next === nextAfter)) return lines.slice(0, k).join('\n');
    if (k === 0 && distinctive) return '';
  }
  // The answer ends with the start of the suffix's own line (`foo(a, b);` before `);`).
  const head = (suffix.split('\n')[0] ?? '').trim();
  if (head !== '' && text.trimEnd().endsWith(head) && text.trimEnd().length > head.length)
    return text.trimEnd().slice(0, -head.length);
  return text;
}

/**
 * Cuts a block suggestion where the block around the cursor closes (a bracket closing one opened
 * before the cursor) or, for indentation-scoped code, where a line is indented less than the
 * cursor's line; at most `maxLines` lines.
 */
function cutAtBlockEnd(text: string, linePrefix: string, maxLines: number): string {
  const lines = text.split('\n');
  const cursorIndent = /^[ \t]*/.exec(linePrefix)![0].length;
  const out: string[] = [];
  let depth = 0;
  for (let k = 0; k < lines.length && out.length < maxLines; k++) {
    const line = lines[k]!;
    if (k > 0 && line.trim() !== '' && linePrefix.trim() === '' && indentOf(line) < cursorIndent) break;
    const closeAt = closingPosition(line, depth);
    if (closeAt.at >= 0) {
      const kept = line.slice(0, closeAt.at);
      if (kept.trim() !== '') out.push(kept.trimEnd());
      break;
    }
    depth = closeAt.depth;
    out.push(line);
  }
  return out.join('\n');
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/**
 * Where in `line` a bracket closes below depth 0 (one opened before the cursor), skipping string
 * literals and line comments; -1 when none does, with the depth after the line.
 */
function closingPosition(line: string, depth: number): { at: number; depth: number } {
  let quote: string | undefined;
  for (let c = 0; c < line.length; c++) {
    const ch = line[c]!;
    if (quote) {
      if (ch === '\\') c++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '/' && line[c + 1] === '/') break;
    else if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') {
      depth--;
      if (depth < 0) return { at: c, depth };
    }
  }
  return { at: -1, depth };
}
