import { highlightLater, loadHighlighter, renderMarkdownNodes } from './markdown';
import { SegmentedText } from './segments';
import { TextChunks } from './textChunks';

const GROUP_SIZE = 32;
/** Above this, a streamed code block stays plain text (see `adoptLive`). */
const LARGE_CODE_CHARS = 50_000;

/**
 * Renders one assistant answer while it streams, at a cost that does not grow with the answer.
 *
 * The text is split into blocks at blank lines outside fenced code (where markdown cannot carry
 * state from one block to the next, except for indented continuations, which we keep together).
 * A finished block is rendered once and appended (its code highlighted later, in idle time); only the unfinished tail is
 * re-rendered, at most once per animation frame, without highlighting. Deltas are only appended
 * to a string, so a burst of tokens between two frames costs one render.
 *
 * A fenced code block that starts at the margin is a block of its own (it may interrupt a
 * paragraph), and while it is open its text is appended to a plain text node rather than
 * re-rendered, so even a model writing a thousand-line file costs only the new characters.
 */
export class StreamRenderer {
  private readonly text = new TextChunks();
  /** End of the text already rendered into finished blocks. */
  private stableEnd = 0;
  /** Where the next unscanned line starts. */
  private scanPos = 0;
  private fence:
    { char: string; len: number; topLevel: boolean; start: number; codeStart: number; lang: string } | undefined;
  /** The open top-level fence shown as growing plain text (its `length` is how much code it shows). */
  private live: { start: number; code: HTMLElement; text: SegmentedText } | undefined;
  /** Start of the line after the last blank line seen outside a fence, if it may end a block. */
  private blankBoundary: number | undefined;
  private frame: number | undefined;
  private group: HTMLElement | undefined;
  private readonly frozen: HTMLElement;
  private readonly tail: HTMLElement;

  constructor(
    readonly root: HTMLElement,
    private readonly onBlock: (el: HTMLElement) => void,
    private readonly schedule: (cb: () => void) => number = (cb) => requestAnimationFrame(cb),
  ) {
    this.frozen = document.createElement('div');
    this.frozen.className = 'md-frozen';
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    root.replaceChildren(this.frozen, this.tail);
  }

  get content(): string {
    return this.text.toString();
  }

  append(delta: string): void {
    if (!delta) return;
    this.text.append(delta);
    if (this.frame === undefined) {
      this.frame = this.schedule(() => {
        this.frame = undefined;
        this.flush();
      });
    }
  }

  /** Renders now what has arrived (also called by the frame callback). */
  flush(): void {
    this.scan();
    const f = this.fence;
    if (f?.topLevel && f.start === this.stableEnd) {
      if (this.live?.start !== f.start) {
        const pre = document.createElement('pre');
        pre.className = 'md-live-code';
        const code = document.createElement('code');
        if (f.lang) {
          code.className = `language-${f.lang}`;
          // highlight.js loads while the block streams, ready for when it closes.
          void loadHighlighter();
        }
        pre.appendChild(code);
        this.tail.replaceChildren(pre);
        this.live = { start: f.start, code, text: new SegmentedText(code) };
      }
      this.live.text.append(this.text.slice(f.codeStart + this.live.text.length));
      return;
    }
    this.live = undefined;
    const tail = this.text.slice(this.stableEnd);
    if (tail) this.tail.replaceChildren(renderMarkdownNodes(tail, { highlight: false }));
    else this.tail.replaceChildren();
  }

  /** Makes the live code block (exactly the code up to `codeEnd`) a finished block. */
  private adoptLive(live: NonNullable<StreamRenderer['live']>, codeStart: number, codeEnd: number): void {
    const want = codeEnd - codeStart;
    // Part of the closing fence line was shown while it arrived; it sits at the end.
    if (live.text.length > want) live.text.trimEnd(live.text.length - want);
    else live.text.append(this.text.slice(codeStart + live.text.length, codeEnd));
    const pre = live.code.parentElement;
    this.live = undefined;
    this.stableEnd = this.scanPos;
    if (!pre) return;
    const el = document.createElement('div');
    el.className = 'md-block';
    el.appendChild(pre);
    this.appendBlock(el);
  }

  /** The answer is complete: the tail becomes a finished (highlighted) block. */
  finish(): void {
    if (this.frame !== undefined) {
      cancelAnimationFrame(this.frame);
      this.frame = undefined;
    }
    this.scan();
    this.freeze(this.text.length);
    this.tail.replaceChildren();
  }

  private scan(): void {
    const t = this.text;
    let nl = t.indexOf('\n', this.scanPos);
    while (nl !== -1) {
      const line = t.slice(this.scanPos, nl);
      const lineStart = this.scanPos;
      this.scanPos = nl + 1;
      const fenceMatch = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (this.fence) {
        if (
          fenceMatch &&
          fenceMatch[1]?.[0] === this.fence.char &&
          (fenceMatch[1]?.length ?? 0) >= this.fence.len &&
          !fenceMatch[2]?.trim()
        ) {
          const f = this.fence;
          this.fence = undefined;
          // A closed top-level fence is complete: render it (highlighted) now, unless it is
          // huge: then the plain segments already on screen become the finished block, because
          // highlighting and laying out thousands of lines at once would freeze the panel.
          if (f.topLevel) {
            if (this.live?.start === f.start && lineStart - f.codeStart > LARGE_CODE_CHARS)
              this.adoptLive(this.live, f.codeStart, lineStart);
            else this.freeze(this.scanPos);
            this.blankBoundary = undefined;
          }
        }
      } else if (line.trim() === '') {
        this.blankBoundary = this.scanPos;
      } else {
        const opens = fenceMatch && !(fenceMatch[1]?.[0] === '`' && fenceMatch[2]?.includes('`'));
        const topLevel = Boolean(opens && /^[`~]/.test(line));
        if ((this.blankBoundary !== undefined && !/^[ \t]/.test(line)) || topLevel) this.freeze(lineStart);
        this.blankBoundary = undefined;
        if (opens) {
          const lang = /^[\w+#.-]*/.exec(fenceMatch[2]?.trim() ?? '')?.[0] ?? '';
          this.fence = {
            char: fenceMatch[1]?.[0] ?? '`',
            len: fenceMatch[1]?.length ?? 3,
            topLevel,
            start: lineStart,
            codeStart: this.scanPos,
            lang,
          };
        }
      }
      nl = t.indexOf('\n', this.scanPos);
    }
    // The unfinished last line already tells whether the blank line before it ended a block:
    // its first character shows it is not an indented continuation.
    if (
      !this.fence &&
      this.blankBoundary !== undefined &&
      this.scanPos < t.length &&
      !/^[ \t\n]/.test(t.charAt(this.scanPos) || ' ')
    ) {
      this.freeze(this.scanPos);
      this.blankBoundary = undefined;
    }
  }

  private freeze(end: number): void {
    if (end <= this.stableEnd) return;
    const block = this.text.slice(this.stableEnd, end);
    this.stableEnd = end;
    if (!block.trim()) return;
    const el = document.createElement('div');
    el.className = 'md-block';
    el.appendChild(renderMarkdownNodes(block, { highlight: false }));
    this.appendBlock(el);
    highlightLater(el);
  }

  private appendBlock(el: HTMLElement): void {
    // Blocks go into groups of GROUP_SIZE: a layout pass walks the children of the box that
    // changed, so one flat list of thousands of blocks would make every append cost more.
    if (!this.group || this.group.childElementCount >= GROUP_SIZE) {
      this.group = document.createElement('div');
      this.group.className = 'md-group';
      this.frozen.appendChild(this.group);
    }
    this.group.appendChild(el);
    this.onBlock(el);
  }
}
