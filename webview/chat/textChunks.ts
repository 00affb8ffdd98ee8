/**
 * A streamed answer's text as the pieces it arrived in. `text += delta` makes a string that V8
 * copies whole (flattens) on the next `indexOf` or `slice`, so reading near the end of a long
 * answer once per frame would copy all of it every frame: here a read touches only the pieces it
 * spans.
 */
export class TextChunks {
  private readonly pieces: string[] = [];
  /** Where each piece starts in the whole text. */
  private readonly starts: number[] = [];
  private joined: string | undefined = '';
  length = 0;

  append(s: string): void {
    if (!s) return;
    this.pieces.push(s);
    this.starts.push(this.length);
    this.length += s.length;
    this.joined = undefined;
  }

  /** The whole text (joined once per change; for the end of the answer, not per frame). */
  toString(): string {
    this.joined ??= this.pieces.join('');
    return this.joined;
  }

  slice(from: number, to = this.length): string {
    to = Math.min(to, this.length);
    if (from >= to) return '';
    let i = this.find(from);
    const first = this.pieces[i]!;
    const off = from - this.starts[i]!;
    if (to - this.starts[i]! <= first.length) return first.slice(off, to - this.starts[i]!);
    const out = [first.slice(off)];
    for (i++; i < this.pieces.length && this.starts[i]! < to; i++)
      out.push(this.pieces[i]!.slice(0, to - this.starts[i]!));
    return out.join('');
  }

  indexOf(ch: string, from: number): number {
    if (from >= this.length) return -1;
    for (let i = this.find(from); i < this.pieces.length; i++) {
      const start = this.starts[i]!;
      const at = this.pieces[i]!.indexOf(ch, Math.max(0, from - start));
      if (at !== -1) return start + at;
    }
    return -1;
  }

  charAt(at: number): string {
    if (at < 0 || at >= this.length) return '';
    const i = this.find(at);
    return this.pieces[i]![at - this.starts[i]!] ?? '';
  }

  /** The piece holding `at` (binary search over the starts). */
  private find(at: number): number {
    let lo = 0;
    let hi = this.pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
