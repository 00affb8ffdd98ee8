// Responses stream events as OpenAI documents them, and the deviations relays add.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../../src/api/transport/errors';
import { ResponsesAccumulator, usageOf } from '../../../../src/api/responses/events';
import type { ChatStreamEvent } from '../../../../src/api/chat/wire';

function run(events: unknown[]): { acc: ResponsesAccumulator; out: ChatStreamEvent[] } {
  const out: ChatStreamEvent[] = [];
  const acc = new ResponsesAccumulator((e) => out.push(e));
  for (const e of events) acc.push(e);
  return { acc, out };
}

const completed = (extra: object = {}) => ({
  type: 'response.completed',
  response: {
    id: 'resp_1',
    model: 'gpt-5',
    status: 'completed',
    usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14, output_tokens_details: { reasoning_tokens: 2 } },
    ...extra,
  },
});

void test('text, reasoning summary, a function call and usage map onto the chat events and result', () => {
  const { acc, out } = run([
    { type: 'response.created', response: { id: 'resp_1', model: 'gpt-5', status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
    { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'Plan ' },
    { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 1, delta: 'then act' },
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' },
    },
    { type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'msg_1', content: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_1', delta: 'Reading ' },
    { type: 'response.output_text.delta', item_id: 'msg_1', delta: 'it.' },
    {
      type: 'response.output_item.done',
      output_index: 1,
      item: { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Reading it.' }] },
    },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '' },
    },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"path":' },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '"a.ts"}' },
    { type: 'response.function_call_arguments.done', item_id: 'fc_1', arguments: '{"path":"a.ts"}' },
    completed(),
  ]);
  const r = acc.result();
  assert.equal(r.message.content, 'Reading it.');
  assert.equal(r.message.reasoning_content, 'Plan \n\nthen act');
  assert.deepEqual(r.message.tool_calls, [
    { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
  ]);
  assert.equal(r.finishReason, 'tool_calls');
  assert.deepEqual(r.usage, {
    prompt_tokens: 10,
    completion_tokens: 4,
    total_tokens: 14,
    completion_tokens_details: { reasoning_tokens: 2 },
  });
  assert.equal(r.model, 'gpt-5');
  assert.deepEqual(acc.encryptedReasoning, [{ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' }]);
  assert.deepEqual(
    out.filter((e) => e.type === 'tool_call').map((e) => (e as { argumentsDelta: string }).argumentsDelta),
    ['', '{"path":', '"a.ts"}'],
  );
});

void test('a relay that sends only the finished items (or a non-streamed response) gives the same result', () => {
  const acc = new ResponsesAccumulator();
  acc.pushResponse({
    id: 'resp_2',
    model: 'm',
    status: 'completed',
    output: [
      { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: 'thought' }] },
      { type: 'message', id: 'msg', content: [{ type: 'output_text', text: 'Hi' }] },
      { type: 'function_call', id: 'fc', call_id: 'c', name: 'f', arguments: '{}' },
    ],
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  const r = acc.result();
  assert.equal(r.message.content, 'Hi');
  assert.equal(r.message.reasoning_content, 'thought');
  assert.equal(r.message.tool_calls?.[0]?.function.arguments, '{}');
  assert.equal(r.usage?.total_tokens, 2);
});

void test('text delivered by deltas is not added again by the completed output', () => {
  const { acc } = run([
    { type: 'response.output_text.delta', item_id: 'msg', delta: 'Once' },
    completed({ output: [{ type: 'message', id: 'msg', content: [{ type: 'output_text', text: 'Once' }] }] }),
  ]);
  assert.equal(acc.result().message.content, 'Once');
});

void test('response.incomplete is a length finish; response.failed and error throw with what arrived', () => {
  const inc = run([
    { type: 'response.output_text.delta', delta: 'part' },
    {
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    },
  ]);
  assert.equal(inc.acc.result().finishReason, 'length');
  for (const bad of [
    { type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } },
    { type: 'error', code: 'rate_limit_exceeded', message: 'boom', param: null },
    { error: { message: 'boom', type: 'upstream_error' } },
  ]) {
    const acc = new ResponsesAccumulator();
    acc.push({ type: 'response.output_text.delta', delta: 'kept' });
    assert.throws(
      () => acc.push(bad),
      (e: unknown) =>
        e instanceof GatewayError &&
        e.kind === 'stream' &&
        /boom/.test(e.message) &&
        e.partial?.message.content === 'kept',
    );
  }
});

void test('think tags inside output text are reasoning; unknown events are ignored', () => {
  const { acc } = run([
    { type: 'response.output_text.delta', delta: '<think>hm</thi' },
    { type: 'response.output_text.annotation.added', annotation: {} },
    { type: 'response.output_text.delta', delta: 'nk>Yes' },
    completed(),
  ]);
  assert.equal(acc.result().message.content, 'Yes');
  assert.equal(acc.result().message.reasoning_content, 'hm');
  assert.equal(acc.finished, true);
});

void test('usageOf reads the Responses names and the chat names', () => {
  assert.deepEqual(usageOf({ input_tokens: 3, output_tokens: 2, input_tokens_details: { cached_tokens: 1 } }), {
    prompt_tokens: 3,
    completion_tokens: 2,
    total_tokens: 5,
    prompt_tokens_details: { cached_tokens: 1 },
  });
  assert.equal(usageOf({ foo: 1 }), undefined);
});
