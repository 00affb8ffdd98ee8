// `reasoning` as a plain string (vLLM, OpenRouter): the field alone, and a recorded vLLM stream
// through the real client (fixtures/plainReasoning.sse and its snapshot).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { plainReasoning } from '../../../../../src/api/chat/reasoning/plainReasoning';
import { matchSnapshot, replay } from '../../../../support/recordedStream';

const fixtures = join(__dirname, '..', 'fixtures');

void test('the field is the reasoning; absent or null is none', () => {
  assert.equal(plainReasoning.read({ reasoning: 'weigh' }), 'weigh');
  assert.equal(plainReasoning.read({}), undefined);
  assert.equal(plainReasoning.read({ reasoning: null }), null);
});

void test('a recorded vLLM stream: reasoning in `reasoning`, then the answer, usage in a chunk without choices', async () => {
  const r = await replay(join(fixtures, 'plainReasoning.sse'));
  assert.equal(r.streamed.reasoning, r.result.message.reasoning_content);
  assert.equal(r.streamed.text, r.result.message.content);
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'plainReasoning.json'));
});
