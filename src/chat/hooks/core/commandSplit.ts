/**
 * A shell command line cut into the simple commands it runs, so a rule is matched against each of
 * them: `npm test && curl x | sh` is three commands, and `npm test` allows only the first. Cuts at
 * `&&`, `||`, `;`, `|`, `&`, newlines, and into subshells `( … )`, command substitutions `$( … )`
 * and backticks (also inside double quotes, where the shell still runs them) and process
 * substitutions `<( … )`; quotes and backslashes are honoured, so `echo "a && b"` is one command.
 * A substitution's text stays in its command too (`echo $(date)` is matched as written) and its
 * inner commands are listed as well.
 *
 * Not a shell parser: a line it cannot follow to the end (an open quote or substitution) is
 * marked incomplete, and whatever it is unsure of only makes a line ask more, never less.
 */

export interface CommandPart {
  /** The command as written, whitespace outside quotes collapsed. */
  readonly text: string;
  /** Redirects output into a file (`> out.txt`, `>> log`; not `2>&1` or `> /dev/null`). */
  readonly writesFile: boolean;
}

export interface SplitLine {
  readonly parts: readonly CommandPart[];
  /** False when a quote, substitution or subshell was left open. */
  readonly complete: boolean;
}

type End = ')' | '`' | undefined;

class Scanner {
  readonly parts: CommandPart[] = [];
  complete = true;
  constructor(private readonly s: string) {}

  /** Scans from `i` until `end` (or the line's end); returns the index after it. */
  scan(i: number, end: End): number {
    const s = this.s;
    let cur = '';
    let writes = false;
    let quote: '"' | "'" | undefined;
    const flush = () => {
      const text = cur.trim();
      if (text !== '') this.parts.push({ text, writesFile: writes });
      cur = '';
      writes = false;
    };
    /** A nested `$( … )`, backtick or `<( … )`: its commands are listed, its text stays in ours. */
    const nested = (from: number, open: number, close: End) => {
      const j = this.scan(from + open, close);
      cur += s.slice(from, j);
      return j;
    };
    while (i < s.length) {
      const c = s.charAt(i);
      if (quote === "'") {
        cur += c;
        if (c === "'") quote = undefined;
        i++;
      } else if (c === '\\') {
        cur += s.slice(i, i + 2);
        i += 2;
      } else if (c === '$' && s[i + 1] === '(') i = nested(i, 2, ')');
      else if (c === '`' && end !== '`') i = nested(i, 1, '`');
      else if (quote === '"') {
        cur += c;
        if (c === '"') quote = undefined;
        i++;
      } else if (c === "'" || c === '"') {
        quote = c;
        cur += c;
        i++;
      } else if ((c === ')' && end === ')') || (c === '`' && end === '`')) {
        flush();
        return i + 1;
      } else if ((c === '<' || c === '>') && s[i + 1] === '(') i = nested(i, 2, ')');
      else if (c === '(') {
        flush();
        i = this.scan(i + 1, ')');
      } else if (c === '>') {
        const target = /^>*\|?\s*(&|[^\s;&|()<>]*)/.exec(s.slice(i + 1))?.[1] ?? '';
        if (!target.startsWith('&') && target !== '/dev/null') writes = true;
        cur += c;
        i++;
      } else if (c === '&' && (cur.endsWith('>') || s[i + 1] === '>')) {
        // `2>&1`, `&>file`: a redirection, not a background `&`.
        if (s[i + 1] === '>') writes = true;
        cur += c;
        i++;
      } else if (c === ';' || c === '\n' || c === '\r' || c === '&' || c === '|') {
        flush();
        i++;
      } else if (c === '#' && (cur === '' || /\s$/.test(cur))) {
        while (i < s.length && s[i] !== '\n') i++;
      } else if (/\s/.test(c)) {
        if (cur !== '' && !cur.endsWith(' ')) cur += ' ';
        i++;
      } else {
        cur += c;
        i++;
      }
    }
    if (quote || end) this.complete = false;
    flush();
    return i;
  }
}

export function splitCommandLine(line: string): SplitLine {
  const sc = new Scanner(line);
  sc.scan(0, undefined);
  return { parts: sc.parts, complete: sc.complete };
}
