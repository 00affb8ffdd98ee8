/**
 * A unified diff (`git diff` output) without the parts of secret files (./sensitiveFiles), for
 * what goes to a model without a question: the commit message's diff and the @changes mention.
 * A secret's diff lines are its values (`-API_KEY=old`, `+API_KEY=new`), and even a hunk header
 * quotes a line of the file, so the whole file's part goes and a line says so instead.
 */
import { isSecretPath } from './sensitiveFiles';

/** The diff without secret files, and the paths left out (in order, each once). */
export interface SecretDiffs {
  text: string;
  leftOut: string[];
}

/**
 * Removes every `diff --git` part that names a secret file in its header: either side of the
 * header (every reading of an unquoted header with spaces), a rename's or copy's names, or the
 * `---`/`+++` lines. Text before the first part is kept.
 */
export function withoutSecretDiffs(diff: string): SecretDiffs {
  const kept: string[] = [];
  const leftOut: string[] = [];
  let part: string[] | undefined;
  const close = (): void => {
    if (!part) return;
    const secret = headerPaths(part).find(isSecretPath);
    if (secret === undefined) kept.push(...part);
    else if (!leftOut.includes(secret)) leftOut.push(secret);
  };
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      close();
      part = [line];
    } else if (part) part.push(line);
    else kept.push(line);
  }
  close();
  return { text: kept.join('\n'), leftOut };
}

/** The lines that say what was left out: `diff of .env left out: secret file`. */
export function leftOutNote(leftOut: readonly string[]): string {
  return leftOut.map((p) => `diff of ${p} left out: secret file`).join('\n');
}

/** Every path a part's header may name, read generously: a secret must not hide in an odd quote. */
function headerPaths(part: readonly string[]): string[] {
  const out: string[] = [];
  const rest = part[0]!.slice('diff --git '.length);
  const quoted = /^"?a\/(.*?)"? "?b\/(.*?)"?$/.exec(rest);
  if (quoted) out.push(unquote(quoted[1]!), unquote(quoted[2]!));
  // Unquoted names may hold spaces, so `a/x b/y` splits at any ` b/`: try every split.
  for (let i = rest.indexOf(' b/'); i >= 0; i = rest.indexOf(' b/', i + 1))
    out.push(unquote(rest.slice(0, i).replace(/^"?a\//, '')), unquote(rest.slice(i + 3).replace(/"$/, '')));
  for (const line of part.slice(1)) {
    if (line.startsWith('@@')) break;
    const m = /^(?:rename from|rename to|copy from|copy to|--- a\/|\+\+\+ b\/|--- "a\/|\+\+\+ "b\/) ?(.*)$/.exec(line);
    if (m) out.push(unquote(m[1]!.replace(/"$/, '')));
  }
  return out;
}

/** Unescapes a quoted git path (`\"`, `\\`, `\t`); octal bytes stay as written. */
function unquote(p: string): string {
  return p.replace(/\\(["\\])/g, '$1').replace(/\\t/g, '\t');
}
