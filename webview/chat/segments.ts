const GROUP_SIZE = 32;
const SEGMENT_LINES = 40;
/** A segment without line breaks (long reasoning prose) still ends near this size, at a space. */
const SEGMENT_CHARS = 4_000;

/**
 * Text that only grows (an open code block, the reasoning), kept in segments of SEGMENT_LINES
 * lines: the browser lays out a text node as a whole, so one ever-growing node would make each
 * frame cost more. Segments are blocks (CSS `.md-live-seg`) and go into groups of GROUP_SIZE,
 * for the same reason finished markdown blocks do.
 */
export class SegmentedText {
  private group: HTMLElement;
  /** The segment being written. */
  private seg: Text;
  private segLines = 0;
  /** Characters of text shown. */
  length = 0;

  constructor(
    private readonly root: HTMLElement,
    /** Prose (reasoning) may end a segment at a space; code may not, its lines do not wrap. */
    private readonly breakAtSpaces = false,
  ) {
    this.group = this.newGroup();
    this.seg = this.newSegment();
  }

  append(text: string): void {
    this.length += text.length;
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      this.seg.appendData(text.slice(from, nl + 1));
      from = nl + 1;
      if (++this.segLines >= SEGMENT_LINES) this.next();
    }
    if (from >= text.length) return;
    let rest = text.slice(from);
    // A segment ends at a line break; a paragraph with none may end one at a space instead.
    while (this.breakAtSpaces && this.seg.length + rest.length > SEGMENT_CHARS) {
      const space = rest.indexOf(' ', Math.max(0, SEGMENT_CHARS - this.seg.length));
      if (space === -1) break;
      this.seg.appendData(rest.slice(0, space + 1));
      rest = rest.slice(space + 1);
      this.next();
    }
    this.seg.appendData(rest);
  }

  /** Removes the last `n` characters, as far as the segment being written holds them. */
  trimEnd(n: number): void {
    const cut = Math.min(n, this.seg.length);
    this.seg.deleteData(this.seg.length - cut, cut);
    this.length -= cut;
  }

  private next(): void {
    if (this.group.childElementCount >= GROUP_SIZE) this.group = this.newGroup();
    this.seg = this.newSegment();
    this.segLines = 0;
  }

  private newSegment(): Text {
    const span = document.createElement('span');
    span.className = 'md-live-seg';
    const text = document.createTextNode('');
    span.appendChild(text);
    this.group.appendChild(span);
    return text;
  }

  private newGroup(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'md-live-group';
    this.root.appendChild(span);
    return span;
  }
}
