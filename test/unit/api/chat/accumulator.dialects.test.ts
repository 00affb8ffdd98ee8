// The four reasoning dialects as the accumulator reads them (issue 22 item 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatAccumulator } from '../../../../src/api/chat/accumulator';
import type { ChatStreamEvent } from '../../../../src/api/chat/wire';

const d = (delta: unknown, finish: string | null = null) => ({
  id: 'x',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function run(chunks: unknown[]): { acc: ChatAccumulator; events: ChatStreamEvent[] } {
  const events: ChatStreamEvent[] = [];
  const acc = new ChatAccumulator((e) => events.push(e));
  for (const ch of chunks) acc.push(ch);
  return { acc, events };
}

const text = (events: ChatStreamEvent[], type: 'text' | 'reasoning') =>
  events
    .filter((e) => e.type === type)
    .map((e) => (e as { text: string }).text)
    .join('');

void test('reasoning_details[] text and summaries are reasoning; encrypted entries are not shown', () => {
  const { acc, events } = run([
    d({ reasoning_details: [{ type: 'reasoning.text', text: 'first ' }] }),
    d({
      reasoning_details: [
        { type: 'reasoning.summary', summary: 'then' },
        { type: 'reasoning.encrypted', data: 'xx' },
      ],
    }),
    d({ content: 'Answer' }, 'stop'),
  ]);
  assert.equal(acc.result().message.reasoning_content, 'first then');
  assert.equal(text(events, 'reasoning'), 'first then');
  assert.equal(acc.result().message.content, 'Answer');
});

void test('OpenRouter sends reasoning and reasoning_details with the same text: it is counted once', () => {
  const { acc } = run([
    d({ reasoning: 'once', reasoning_details: [{ type: 'reasoning.text', text: 'once' }] }),
    d({ content: 'A' }, 'stop'),
  ]);
  assert.equal(acc.result().message.reasoning_content, 'once');
});

void test('<think> cut across chunks is reasoning; the answer and its events carry no tag', () => {
  const { acc, events } = run([
    d({ role: 'assistant', content: '' }),
    d({ content: '<thi' }),
    d({ content: 'nk>weigh it</th' }),
    d({ content: 'ink>\n\n```ts\nconst a = 1;\n```' }, 'stop'),
  ]);
  const m = acc.result().message;
  assert.equal(m.reasoning_content, 'weigh it');
  assert.equal(m.content, '```ts\nconst a = 1;\n```');
  assert.equal(text(events, 'text'), m.content);
  assert.ok(!text(events, 'text').includes('think>'));
});

void test('a stream cut inside a think block keeps what arrived as reasoning of the partial answer', () => {
  const { acc } = run([d({ content: '<think>half a thou' }), d({ content: 'ght </thi' })]);
  assert.equal(acc.finished, false);
  assert.deepEqual(acc.result().message, { role: 'assistant', content: '', reasoning_content: 'half a thought </thi' });
});
