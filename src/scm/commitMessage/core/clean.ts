/**
 * A model's answer turned into a commit message. Models asked for "the message only" still wrap
 * it: "Here is a commit message:" before it, a code fence or quotes around it, a note after it,
 * a `<think>` block first. This keeps the message and drops the wrapping, also while the answer
 * streams, so the input box never shows a preamble that is about to disappear.
 */

/** The opening line of a fence (``` or ~~~, with an info string such as `git` or `text`). */
const FENCE_OPEN = /^(`{3,}|~{3,})[\w.+-]*[ \t]*$/m;
/** An opening first line ("Sure!", "Here is a commit message for these changes:"). */
const CHATTY_START = /^(sure|certainly|of course|okay|ok|absolutely|great)[!,.]/i;
const INTRO_WORDS = /\b(commit|message|here|here's|suggest\w*|following|below|changes?|diff)\b/i;
/** "Commit message: fix: …" on one line: the label goes, the message stays. */
const INLINE_LABEL = /^(?:suggested |proposed )?commit message\s*:\s*(\S.*)$/i;
/** A closing paragraph about the message rather than part of it. */
const TRAILER =
  /^(this (commit )?message|the (commit )?message (above|follows)|this follows|let me know|feel free|i hope|hope this|note:|explanation:)/i;
/** Starts that may still become a preamble, a fence or a quote: held back while streaming. */
const MAYBE_WRAPPING = [
  'here',
  'sure',
  'certainly',
  'of course',
  'okay',
  'absolutely',
  'great',
  'commit message',
  'suggested',
  'proposed',
  'below',
  'the following',
  'based on',
  '```',
  '~~~',
  '<think',
  '**',
  '#',
  '"',
  "'",
  '`',
  '“',
];
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '`': '`', '“': '”', '「': '」' };

/** Markdown emphasis and heading marks around a line, which a commit message does not use. */
function plain(line: string): string {
  return line
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .replace(/^__(.*)__$/, '$1')
    .trim();
}

/** True for a first line that introduces the message instead of being it. */
function isPreamble(line: string, more: boolean): boolean {
  const p = plain(line).replace(/\*\*/g, '');
  if (p === '') return false;
  if (more && CHATTY_START.test(p) && p.length < 160) return true;
  return /:$/.test(p) && INTRO_WORDS.test(p) && p.length < 160;
}

/** `<think>` blocks dropped; an unclosed one drops everything after it. */
function withoutThinking(t: string): string {
  const closed = t.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const open = closed.search(/<think>/i);
  return open >= 0 ? closed.slice(0, open) : closed;
}

/** The text inside the first fence when what precedes it is a preamble (or nothing). */
function unfence(t: string): string {
  const open = FENCE_OPEN.exec(t);
  if (!open) return t;
  const before = t.slice(0, open.index).trim();
  if (before !== '' && !(before.split('\n').length <= 2 && isPreamble(before.split('\n').at(-1)!, true))) return t;
  const rest = t.slice(open.index + open[0].length).replace(/^\n/, '');
  const marker = open[1]!;
  const close = new RegExp(`^${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'm').exec(rest);
  return close ? rest.slice(0, close.index) : rest;
}

/** The text without matching quotes around it (while streaming: without an opening quote). */
function unquote(t: string, partial: boolean): string {
  const close = QUOTES[t[0] ?? ''];
  if (close === undefined) return t;
  if (t.length > 1 && t.endsWith(close)) return t.slice(1, -1).trim();
  return partial ? t.slice(1) : t;
}

/** True while the first line, still incomplete, may turn out to be wrapping. */
function mayBeWrapping(firstLine: string): boolean {
  const p = firstLine.trimStart().toLowerCase();
  if (p === '') return true;
  return MAYBE_WRAPPING.some((w) => w.startsWith(p) || p.startsWith(w));
}

/**
 * The commit message in a model's answer. With `partial` (the answer is still streaming), an
 * incomplete first line that may become a preamble, a fence or a quote is held back (empty).
 */
export function cleanCommitMessage(raw: string, partial = false): string {
  let t = withoutThinking(raw.replace(/\r\n?/g, '\n')).trim();
  if (partial && !t.includes('\n') && mayBeWrapping(t)) return '';
  t = unfence(t).trim();
  const lines = t.split('\n');
  // Preamble lines, and the blank lines after them.
  while (lines.length > 0 && isPreamble(lines[0]!, lines.length > 1)) {
    lines.shift();
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  }
  if (lines.length > 0) {
    const first = plain(lines[0]!);
    lines[0] = INLINE_LABEL.exec(first)?.[1] ?? first;
  }
  t = unfence(lines.join('\n')).trim();
  if (partial && !t.includes('\n') && mayBeWrapping(t)) return '';
  t = unquote(t, partial);
  const paragraphs = t.split(/\n[ \t]*\n/);
  while (paragraphs.length > 1 && TRAILER.test(paragraphs.at(-1)!.trim())) paragraphs.pop();
  return paragraphs
    .join('\n\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Assembles a streamed answer: each piece of text in, the message to show out (undefined when it
 * did not change), and the final message once the stream ends.
 */
export class CommitMessageStream {
  private raw = '';
  private shown = '';

  /** The answer so far, as the model sent it. */
  get answer(): string {
    return this.raw;
  }

  /** Adds a piece; returns the message to show when it changed. */
  push(piece: string): string | undefined {
    this.raw += piece;
    const next = cleanCommitMessage(this.raw, true);
    if (next === this.shown) return undefined;
    this.shown = next;
    return next;
  }

  /** The message of the complete answer (the stream ended, or the answer came in one piece). */
  finish(whole?: string): string {
    if (whole !== undefined && whole.length >= this.raw.length) this.raw = whole;
    return cleanCommitMessage(this.raw);
  }
}
