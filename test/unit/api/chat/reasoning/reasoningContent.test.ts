// `reasoning_content` (DeepSeek, llama.cpp, new-api relays): the field alone, and a recorded
// DeepSeek stream through the real client (fixtures/reasoningContent.sse and its snapshot).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { reasoningContent } from '../../../../../src/api/chat/reasoning/reasoningContent';
import { matchSnapshot, replay } from '../../../../support/recordedStream';

const fixtures = join(__dirname, '..', 'fixtures');

void test('the field is the reasoning; absent or null is none', () => {
  assert.equal(reasoningContent.read({ reasoning_content: 'think' }), 'think');
  assert.equal(reasoningContent.read({}), undefined);
  assert.equal(reasoningContent.read({ reasoning_content: null }), null);
});

void test('a recorded DeepSeek stream: reasoning, then text and a tool call, usage after the finish', async () => {
  const r = await replay(join(fixtures, 'reasoningContent.sse'));
  assert.equal(r.streamed.reasoning, r.result.message.reasoning_content, 'the events say what the result keeps');
  assert.equal(r.request.stream, true);
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'reasoningContent.json'));
});
