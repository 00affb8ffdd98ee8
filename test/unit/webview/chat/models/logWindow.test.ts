// The log's first window (webview/chat/models/logWindow.ts): plain functions, no browser needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../../../src/shared/protocol';
import {
  estimatedLines,
  WINDOW_LINES,
  WINDOW_MAX_ROWS,
  windowStart,
} from '../../../../../webview/chat/models/logWindow';

const user = (i: number, text: string, images = 0): ChatMessage =>
  ({
    id: `u${i}`,
    role: 'user',
    text,
    images: Array.from({ length: images }, () => ({
      name: 'a.png',
      mime: 'image/png',
      dataUrl: 'data:image/png;base64,AA==',
      bytes: 1,
    })),
    contexts: [],
    createdAt: i,
  }) as ChatMessage;
const answer = (i: number, content: string, extra: object = {}): ChatMessage => ({
  id: `a${i}`,
  role: 'assistant',
  content,
  status: 'done',
  requestedModel: 'm',
  createdAt: i,
  ...extra,
});

void test('a message is estimated by its lines, long lines wrapped at 60 characters, plus its header', () => {
  assert.equal(estimatedLines(user(0, 'hi')), 3);
  assert.equal(estimatedLines(user(0, '')), 3);
  assert.equal(estimatedLines(answer(0, 'a\nb\n\nc')), 2 + 4);
  assert.equal(estimatedLines(answer(0, 'x'.repeat(130))), 2 + 3);
  assert.equal(estimatedLines(user(0, 'look', 2)), 3 + 12, 'an image is six lines');
  assert.equal(estimatedLines(answer(0, 'ok', { reasoning: 'long thought\n'.repeat(50) })), 3 + 1, 'folded thinking');
  // Counting stops at the window: a 1 MB answer costs no more than the window to estimate.
  assert.equal(estimatedLines(answer(0, 'line\n'.repeat(200_000))), WINDOW_LINES);
});

void test('the window is the newest messages that fill about three screens, never more than 30 rows', () => {
  // Short turns: the row cap holds.
  const short = Array.from({ length: 200 }, (_, i) => (i % 2 ? answer(i, 'yes') : user(i, 'ok?')));
  assert.equal(windowStart(short), 200 - WINDOW_MAX_ROWS);
  // 40-line answers of 42 lines with their header, 3-line questions: 42 + 3 + 42 + 3 + 42 = 132 ≥ 120.
  const tall = Array.from({ length: 200 }, (_, i) =>
    i % 2 ? answer(i, 'line\n'.repeat(39) + 'end') : user(i, 'and?'),
  );
  assert.equal(windowStart(tall), 200 - 5);
  // One answer taller than the window: it alone.
  const huge = [...short.slice(0, 10), answer(10, 'x\n'.repeat(500))];
  assert.equal(windowStart(huge), 10);
  // Fewer messages than the window: all of them.
  assert.equal(windowStart(short.slice(0, 5)), 0);
  assert.equal(windowStart([]), 0);
});
