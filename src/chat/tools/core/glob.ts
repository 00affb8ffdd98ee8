// The glob patterns of find_files and search_text's `include`, matched without regular expressions.
import { ToolError } from './runner';

/** A compiled glob; `test` takes a `/`-separated relative path. */
export interface Glob {
  test(path: string): boolean;
}

type GlobToken =
  { k: 'lit'; c: string } | { k: 'one' } | { k: 'star' } | { k: 'any' } | { k: 'anydirs' } | { k: 'class'; re: RegExp };

/** Most alternatives `{a,b}` may expand to. */
const MAX_GLOB_EXPANSIONS = 64;

/**
 * Compiles a glob over `/`-separated relative paths, case-insensitively. `**` crosses folders,
 * `*` and `?` do not, `{a,b}` alternates, `[...]` is a character class. A pattern without `/`
 * matches file names at any depth (`*.ts`), which is what models mean by it.
 *
 * Matching is a memoised walk over (pattern position, path position), not a regular expression:
 * the pattern comes from the model, and a regex built from `*a*a*a*a*b` backtracks for ever.
 */
export function compileGlob(glob: string): Glob {
  let g = glob.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!g.includes('/') && !g.startsWith('**')) g = `**/${g}`;
  const alternatives = expandBraces(g, glob).map(tokenize);
  return { test: (p) => alternatives.some((t) => matchTokens(t, p.toLowerCase())) };
}

function expandBraces(g: string, original: string): string[] {
  const open = g.indexOf('{');
  if (open < 0) {
    if (g.includes('}')) throw new ToolError(`The glob "${original}" has a "}" without "{".`);
    return [g];
  }
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < g.length; i++) {
    const c = g[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      close = i;
      break;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) throw new ToolError(`The glob "${original}" has an unclosed "{".`);
  const cuts = [open, ...commas, close];
  const head = g.slice(0, open);
  const tail = g.slice(close + 1);
  const out: string[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    for (const e of expandBraces(head + g.slice((cuts[i] ?? 0) + 1, cuts[i + 1]) + tail, original)) {
      out.push(e);
      if (out.length > MAX_GLOB_EXPANSIONS)
        throw new ToolError(
          `The glob "${original}" expands to more than ${MAX_GLOB_EXPANSIONS} alternatives; simplify it.`,
        );
    }
  }
  return out;
}

function tokenize(g: string): GlobToken[] {
  const out: GlobToken[] = [];
  const push = (t: GlobToken) => {
    const prev = out[out.length - 1];
    // Runs of wildcards mean the same as one and would only multiply the work.
    if (prev && (t.k === 'star' || t.k === 'any' || t.k === 'anydirs') && prev.k === t.k) return;
    out.push(t);
  };
  for (let i = 0; i < g.length; i++) {
    const c = g.charAt(i);
    if (c === '*') {
      let j = i;
      while (g[j + 1] === '*') j++;
      if (j > i) {
        if (g[j + 1] === '/') {
          push({ k: 'anydirs' });
          i = j + 1;
        } else {
          push({ k: 'any' });
          i = j;
        }
      } else push({ k: 'star' });
    } else if (c === '?') push({ k: 'one' });
    else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      if (close < 0) push({ k: 'lit', c: '[' });
      else {
        let cls = g.slice(i + 1, close);
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        try {
          push({ k: 'class', re: new RegExp(`^[${cls.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}]$`, 'i') });
        } catch {
          throw new ToolError(`The glob "${g}" has an invalid character class [${g.slice(i + 1, close)}].`);
        }
        i = close;
      }
    } else push({ k: 'lit', c: c.toLowerCase() });
  }
  return out;
}

function matchTokens(t: readonly GlobToken[], s: string): boolean {
  const T = t.length;
  const L = s.length;
  // 0 unknown, 1 no, 2 yes, per (token, offset).
  const memo = new Uint8Array((T + 1) * (L + 1));
  const m = (ti: number, si: number): boolean => {
    const key = ti * (L + 1) + si;
    const known = memo[key];
    if (known) return known === 2;
    let r: boolean;
    const tok = t[ti];
    if (!tok) r = si === L;
    else if (tok.k === 'lit') r = s[si] === tok.c && m(ti + 1, si + 1);
    else if (tok.k === 'one') r = si < L && s[si] !== '/' && m(ti + 1, si + 1);
    else if (tok.k === 'class') r = si < L && s[si] !== '/' && tok.re.test(s.charAt(si)) && m(ti + 1, si + 1);
    else if (tok.k === 'star') r = m(ti + 1, si) || (si < L && s[si] !== '/' && m(ti, si + 1));
    else if (tok.k === 'any') r = m(ti + 1, si) || (si < L && m(ti, si + 1));
    else {
      // `**/`: nothing, or anything that ends with a `/`.
      r = m(ti + 1, si);
      for (let j = si; !r && j < L; j++) if (s[j] === '/') r = m(ti + 1, j + 1);
    }
    memo[key] = r ? 2 : 1;
    return r;
  };
  return m(0, 0);
}
