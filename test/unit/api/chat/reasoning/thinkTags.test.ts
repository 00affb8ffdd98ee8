import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ThinkTagSplitter, splitThinkTags } from '../../../../../src/api/chat/reasoning/thinkTags';
import { matchSnapshot, replay } from '../../../../support/recordedStream';

function run(pieces: string[]): { text: string; reasoning: string } {
  const s = new ThinkTagSplitter();
  let text = '';
  let reasoning = '';
  for (const p of pieces) {
    const o = s.push(p);
    text += o.text;
    reasoning += o.reasoning;
  }
  const e = s.end();
  return { text: text + e.text, reasoning: reasoning + e.reasoning };
}

void test('a think block that opens the content is reasoning, and the blank lines after it are dropped', () => {
  assert.deepEqual(splitThinkTags('<think>plan it</think>\n\nThe answer.'), {
    text: 'The answer.',
    reasoning: 'plan it',
  });
});

void test('tags cut at every position across pieces never leak into the text', () => {
  const whole = '  <think>a < b, </thin not yet</think>\nAnswer with <think> inside `code`.';
  for (let i = 1; i < whole.length; i++) {
    for (let j = i; j < whole.length; j++) {
      const r = run([whole.slice(0, i), whole.slice(i, j), whole.slice(j)]);
      assert.deepEqual(
        r,
        { text: 'Answer with <think> inside `code`.', reasoning: 'a < b, </thin not yet' },
        `${i},${j}`,
      );
    }
  }
});

void test('a tag later in an answer is text the user asked about', () => {
  assert.deepEqual(run(['Use ', '<think>', ' in HTML']), { text: 'Use <think> in HTML', reasoning: '' });
  assert.deepEqual(run(['```html\n<think>x</think>\n```']), { text: '```html\n<think>x</think>\n```', reasoning: '' });
});

void test('held pieces come back at the end: a lone "<thi" is text, an unclosed block is reasoning', () => {
  assert.deepEqual(run(['<thi']), { text: '<thi', reasoning: '' });
  assert.deepEqual(run(['<think>still going </thi']), { text: '', reasoning: 'still going </thi' });
  const s = new ThinkTagSplitter();
  s.push('<think>half </th');
  assert.deepEqual(s.peek(), { text: '', reasoning: '</th' });
});

void test('a recorded llama.cpp stream (CRLF, `data:` without a space): the think block cut across chunks is reasoning, a later tag is text', async () => {
  const fixtures = join(__dirname, '..', 'fixtures');
  const r = await replay(join(fixtures, 'thinkTags.sse'));
  assert.equal(r.result.message.reasoning_content, '\nA list reversal in place swaps ends.\n');
  assert.ok(!(r.result.message.content ?? '').startsWith('<'), 'no tag opens the answer');
  assert.ok((r.result.message.content ?? '').includes('<think> and all'), 'a tag inside the answer stays');
  assert.equal(r.streamed.text, r.result.message.content);
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'thinkTags.json'));
});
