// `<think>…</think>` at the start of an answer's content (the fourth reasoning dialect), split off
// as the stream goes, so the tags never reach the answer text, a code block or a file.

const OPEN = '<think>';
const CLOSE = '</think>';

/** What one piece of content turned into: answer text and reasoning text (either may be empty). */
export interface ThinkSplit {
  text: string;
  reasoning: string;
}

type State = 'start' | 'thinking' | 'after' | 'plain';

/** Length of the longest suffix of `s` that is a proper prefix of `tag` (what must wait for more). */
function heldSuffix(s: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, s.length); n > 0; n--) if (tag.startsWith(s.slice(s.length - n))) return n;
  return 0;
}

/**
 * Splits streamed content into answer text and reasoning. Only a `<think>` that opens the content
 * (after whitespace) starts reasoning: a tag later in an answer is text the user asked about (a
 * code sample, an HTML question) and stays. A tag cut across pieces is held back until it is known
 * to be one; {@link end} gives back what was held when the stream ends. A model that omits the
 * opening tag and only closes one (some DeepSeek-R1 templates put `<think>` in the prompt) is not
 * guessed at: without an opening tag the content is text.
 */
export class ThinkTagSplitter {
  private state: State = 'start';
  private held = '';

  push(piece: string): ThinkSplit {
    let s = this.held + piece;
    this.held = '';
    const out: ThinkSplit = { text: '', reasoning: '' };
    while (s !== '') {
      if (this.state === 'plain') {
        out.text += s;
        break;
      }
      if (this.state === 'start') {
        const lead = s.length - s.trimStart().length;
        const rest = s.slice(lead);
        if (rest === '') {
          this.held = s;
          break;
        }
        if (rest.startsWith(OPEN)) {
          this.state = 'thinking';
          s = rest.slice(OPEN.length);
          continue;
        }
        if (OPEN.startsWith(rest)) {
          this.held = s;
          break;
        }
        this.state = 'plain';
        continue;
      }
      if (this.state === 'thinking') {
        const at = s.indexOf(CLOSE);
        if (at >= 0) {
          out.reasoning += s.slice(0, at);
          s = s.slice(at + CLOSE.length);
          this.state = 'after';
          continue;
        }
        const keep = heldSuffix(s, CLOSE);
        out.reasoning += s.slice(0, s.length - keep);
        this.held = s.slice(s.length - keep);
        break;
      }
      // 'after': the blank lines between the closing tag and the answer are not part of it.
      const trimmed = s.replace(/^\s+/, '');
      if (trimmed === '') break;
      this.state = 'plain';
      s = trimmed;
    }
    return out;
  }

  /** What was held back when the stream ended: text, or reasoning inside an unclosed block. */
  end(): ThinkSplit {
    const out = this.peek();
    this.held = '';
    return out;
  }

  /** What {@link end} would give, without giving it (a partial answer's snapshot). */
  peek(): ThinkSplit {
    const held = this.held;
    if (this.state === 'thinking') return { text: '', reasoning: held };
    return { text: held, reasoning: '' };
  }
}

/** The whole-text form, for non-streamed answers. */
export function splitThinkTags(content: string): ThinkSplit {
  const s = new ThinkTagSplitter();
  const a = s.push(content);
  const b = s.end();
  return { text: a.text + b.text, reasoning: a.reasoning + b.reasoning };
}
