/**
 * How a command (or any text the user approves) is shown so that nothing in it can hide: a long
 * run of spaces would push `&& curl …|sh` out of view, bidi controls can reorder what is read,
 * zero-width and control characters are invisible. Pure (no DOM): the chat card, the host's
 * modal and the tool summaries all use it, so every place shows the same text.
 */

/** Longer than this (in characters), a command carries the "read all of it" warning. */
export const LONG_COMMAND_CHARS = 300;
/** A run of more horizontal whitespace than this is collapsed into a counted marker. */
export const MAX_VISIBLE_BLANKS = 3;
/** More consecutive line breaks than this are collapsed into a counted marker. */
export const MAX_VISIBLE_NEWLINES = 2;

export const COMMAND_LONG_WARNING = 'This command is long or has several lines: read all of it before you allow it.';
export const COMMAND_HIDDEN_WARNING =
  'This command contains invisible characters or long runs of spaces; they are shown as markers such as \\u202E and ␠×200.';

/**
 * Characters shown as `\uXXXX` escapes: C0 and C1 controls except the newline, bidi embeddings,
 * overrides, isolates and marks, zero-width and other invisible format characters, the soft
 * hyphen, line/paragraph separators and the Unicode tag block (invisible "ASCII smuggling").
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;
/** Horizontal whitespace (tabs and every Unicode space separator), in runs long enough to hide text. */
const BLANK_RUN = new RegExp(`[\\t\\p{Zs}]{${MAX_VISIBLE_BLANKS + 1},}`, 'gu');
const NEWLINE_RUN = new RegExp(`(?:\\r?\\n){${MAX_VISIBLE_NEWLINES + 1},}`, 'g');

/** `\u202E`, `\t`, `\r`: an escape the reader can see and look up. */
function escapeChar(ch: string): string {
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  const cp = ch.codePointAt(0) ?? 0;
  return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

export interface VisibleTextOptions {
  /**
   * Keep leading indentation as it is (pretty-printed JSON, where a line's indentation is
   * structure, and a string value can never start a line since JSON escapes its line breaks).
   */
  keepIndent?: boolean;
}

/** The text with long blank runs collapsed into `␠×N` markers and invisible characters escaped. */
export function visibleText(text: string, opts: VisibleTextOptions = {}): string {
  const collapsed = text
    .replace(NEWLINE_RUN, (run) => `\n⏎×${run.split('\n').length - 1}\n`)
    .replace(BLANK_RUN, (run, offset: number, whole: string) => {
      if (opts.keepIndent && (offset === 0 || whole[offset - 1] === '\n') && !run.includes('\t')) return run;
      const n = [...run].length;
      return run.includes('\t') && [...run].every((c) => c === '\t') ? `⇥×${n}` : `␠×${n}`;
    });
  return collapsed.replace(INVISIBLE, escapeChar);
}

/** What the approval of a command shows: the visible text and which warnings apply. */
export interface CommandDisplay {
  text: string;
  /** Longer than {@link LONG_COMMAND_CHARS} or more than one line. */
  long: boolean;
  /** Something was collapsed or escaped: the text differs from the command as typed. */
  hidden: boolean;
}

export function commandDisplay(command: string): CommandDisplay {
  const text = visibleText(command);
  const lines = command.replace(/\r?\n$/, '').split('\n').length;
  return { text, long: [...command].length > LONG_COMMAND_CHARS || lines > 1, hidden: text !== command };
}

export type CommandWarning = typeof COMMAND_LONG_WARNING | typeof COMMAND_HIDDEN_WARNING;

/** The warning lines for a command, in English (the host and webview translate them by this text). */
export function commandWarnings(d: CommandDisplay): CommandWarning[] {
  const out: CommandWarning[] = [];
  if (d.long) out.push(COMMAND_LONG_WARNING);
  if (d.hidden) out.push(COMMAND_HIDDEN_WARNING);
  return out;
}
