import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateTextTokens, estimateTokens, IMAGE_TOKENS } from '../../../../../src/lm/messages/core/tokens';

const bytes = (s: string) => new TextEncoder().encode(s);

void test('text is estimated at four characters a token, rounded up', () => {
  assert.equal(estimateTextTokens(''), 0);
  assert.equal(estimateTextTokens('abcd'), 1);
  assert.equal(estimateTextTokens('abcde'), 2);
  assert.equal(estimateTokens('abcdefgh'), 2);
});

void test('a message counts its fixed cost, its text, calls, results, images and text data', () => {
  assert.equal(estimateTokens({ role: 1, content: [] }), 4);
  const n = estimateTokens({
    role: 1,
    content: [
      { value: 'abcdefgh' },
      { callId: 'c', name: 'ab', input: { x: 1 } },
      { callId: 'c', content: [{ value: 'abcd' }] },
      { mimeType: 'image/png', data: bytes('png') },
      { mimeType: 'text/plain', data: bytes('abcdefgh') },
      { mimeType: 'application/octet-stream', data: bytes('ignored bytes') },
    ],
  });
  const call = estimateTextTokens('ab' + JSON.stringify({ x: 1 }));
  assert.equal(n, 4 + 2 + call + 1 + IMAGE_TOKENS + 2);
});
