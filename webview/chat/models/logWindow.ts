/**
 * Where an opened conversation's mounted window starts: the newest messages that fill about three
 * screens of the chat panel, so a long conversation opens at the cost of what is seen. Earlier
 * rows mount as the user scrolls up to them (MessageList.tsx). Heights are estimated from the text
 * (lines, and long lines wrapped at a narrow panel's width) because nothing is laid out yet.
 */
import type { ChatMessage } from '../../../src/shared/protocol';

/** About three screens of an 800 px panel at the log's line height. */
export const WINDOW_LINES = 120;
/** However short the messages, no more rows than this mount at first. */
export const WINDOW_MAX_ROWS = 30;
/** A row's header, padding and gap, in lines. */
const ROW_LINES = 2;
/** Characters on a line of a narrow panel. */
const LINE_CHARS = 60;
/** An image or a tool call is about this tall, in lines. */
const BLOCK_LINES = 6;

/** The estimated height of one message, in lines (never less than its header). */
export function estimatedLines(m: ChatMessage): number {
  const text = m.role === 'user' ? m.text : m.role === 'assistant' ? m.content : '';
  let lines = ROW_LINES;
  let start = 0;
  // Stops early: no message needs counting past the whole window.
  while (start <= text.length && lines < WINDOW_LINES) {
    const end = text.indexOf('\n', start);
    const length = (end === -1 ? text.length : end) - start;
    lines += Math.max(1, Math.ceil(length / LINE_CHARS));
    if (end === -1) break;
    start = end + 1;
  }
  if (m.role === 'user') lines += m.images.length * BLOCK_LINES;
  // A folded Thinking block is a line.
  if (m.role === 'assistant') lines += (m.toolCalls?.length ?? 0) * BLOCK_LINES + (m.reasoning ? 1 : 0);
  return lines;
}

/** The index of the first message to mount: the newest that fill {@link WINDOW_LINES}. */
export function windowStart(messages: readonly ChatMessage[]): number {
  let lines = 0;
  let start = messages.length;
  while (start > 0 && messages.length - start < WINDOW_MAX_ROWS && lines < WINDOW_LINES) {
    start--;
    lines += estimatedLines(messages[start]!);
  }
  return start;
}
