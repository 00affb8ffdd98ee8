// The registry the accumulator reads: every dialect's field in the delta schema, the order in
// which they are read, and the content dialect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DELTA_REASONING,
  contentReasoning,
  deltaReasoning,
  reasoningDeltaShape,
} from '../../../../../src/api/chat/reasoning/dialects';
import { chunkSchema } from '../../../../../src/api/chat/accumulator';

void test('every registered dialect has its field in the chunk schema, and it parses', () => {
  for (const d of DELTA_REASONING) assert.ok(d.name in reasoningDeltaShape, `${d.name} is in the shape`);
  const parsed = chunkSchema.parse({
    choices: [
      { delta: { reasoning_content: 'a', reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'c' }] } },
    ],
  });
  const delta = parsed.choices?.[0]?.delta;
  assert.ok(delta);
  assert.equal(delta.reasoning_content, 'a');
  assert.equal(delta.reasoning, 'b');
  assert.deepEqual(delta.reasoning_details, [{ type: 'reasoning.text', text: 'c' }]);
});

void test('the first field present wins, in the registered order, even when it is empty', () => {
  assert.equal(deltaReasoning({ reasoning_content: 'a', reasoning: 'b' }), 'a');
  assert.equal(deltaReasoning({ reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'b' }] }), 'b');
  assert.equal(deltaReasoning({ reasoning_details: [{ type: 'reasoning.summary', summary: 's' }] }), 's');
  assert.equal(deltaReasoning({ reasoning_content: '', reasoning: 'b' }), '');
  assert.equal(deltaReasoning({ reasoning_content: null, reasoning: null }), undefined);
  assert.equal(deltaReasoning({}), undefined);
});

void test('the content dialect splits a leading think block, one splitter per answer', () => {
  const a = contentReasoning();
  const b = contentReasoning();
  assert.deepEqual(a.push('<think>x</think>y'), { text: 'y', reasoning: 'x' });
  assert.deepEqual(b.push('plain <think>'), { text: 'plain <think>', reasoning: '' });
  assert.deepEqual(a.end(), { text: '', reasoning: '' });
});
