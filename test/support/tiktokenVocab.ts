/**
 * Real token counts for the check-up's fingerprint table (src/account/checkup/core/families.ts),
 * from the o200k and cl100k vocabularies that the host stage's code-server ships with its Copilot
 * extension (`.cache/host/.../copilot/dist/*.tiktoken`): no tokenizer package is a dependency, and
 * nothing is downloaded. The file holds the tokens in rank order, each as its length (a LEB128
 * varint) and its bytes; counting is tiktoken's: split by the encoding's pattern, then merge byte pairs by rank.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const COPILOT_DIST = '.cache/host/code-server/node_modules/code-server/lib/vscode/extensions/copilot/dist';

// tiktoken's patterns; `(?i:…)` written out, since Node 20's RegExp has no inline flags.
const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const PATTERNS = {
  cl100k: new RegExp(
    `${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`,
    'gu',
  ),
  o200k: new RegExp(
    [
      `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+${CONTRACTIONS}?`,
      `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*${CONTRACTIONS}?`,
      `\\p{N}{1,3}`,
      ` ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*`,
      `\\s*[\\r\\n]+`,
      `\\s+(?!\\S)`,
      `\\s+`,
    ].join('|'),
    'gu',
  ),
} as const;

export type TiktokenName = keyof typeof PATTERNS;

/** Where the vocabulary is, looked for from the work tree up (a worktree shares its main checkout's cache). */
export function vocabularyFile(name: TiktokenName, from = process.cwd()): string | undefined {
  const roots = [from, ...(process.env.GWS_MAIN_CHECKOUT ? [process.env.GWS_MAIN_CHECKOUT] : []), '/work/main'];
  for (const r of roots) {
    const f = path.join(r, COPILOT_DIST, `${name}_base.tiktoken`);
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** A counter over one vocabulary: rank by the token's bytes (as latin1 text, one char a byte). */
export class TiktokenCounter {
  private readonly ranks = new Map<string, number>();

  constructor(
    file: string,
    private readonly name: TiktokenName,
  ) {
    const buf = readFileSync(file);
    let rank = 0;
    for (let i = 0; i < buf.length;) {
      let len = 0;
      for (let shift = 0; ; shift += 7) {
        const b = buf[i++]!;
        len |= (b & 127) << shift;
        if (!(b & 128)) break;
      }
      if (len === 0 || i + len > buf.length) throw new Error(`${file}: bad token length before byte ${i}`);
      this.ranks.set(buf.toString('latin1', i, i + len), rank++);
      i += len;
    }
  }

  get size(): number {
    return this.ranks.size;
  }

  /** The number of tokens `text` encodes to (no special tokens). */
  count(text: string): number {
    let n = 0;
    for (const m of text.matchAll(PATTERNS[this.name]))
      n += this.pieceTokens(Buffer.from(m[0], 'utf8').toString('latin1'));
    return n;
  }

  /** Byte-pair merging: repeatedly join the adjacent pair of lowest rank. */
  private pieceTokens(piece: string): number {
    if (this.ranks.has(piece)) return 1;
    const parts = [...piece];
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; i++) {
        const r = this.ranks.get(parts[i]! + parts[i + 1]!);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) return parts.length;
      parts.splice(best, 2, parts[best]! + parts[best + 1]!);
    }
  }
}
