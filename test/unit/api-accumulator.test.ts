// Chunk shapes the local gateway does not produce but relays do (wire-quirks.md "Chunks" and
// "Tool-call deltas"), fed to the accumulator directly or as SSE bytes through an injected fetch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../src/api/accumulator';
import type { ChatStreamEvent } from '../../src/api/wire';
import { GatewayClient } from '../../src/api/client';
import { GatewayError } from '../../src/api/errors';

const c = (choices: unknown, extra: object = {}) => ({ id: 'x', model: 'm', choices, ...extra });
const d = (delta: unknown, finish: string | null = null) => c([{ index: 0, delta, finish_reason: finish }]);

function run(chunks: unknown[]): { acc: ChatAccumulator; events: ChatStreamEvent[] } {
  const events: ChatStreamEvent[] = [];
  const acc = new ChatAccumulator((e) => events.push(e));
  for (const ch of chunks) acc.push(ch);
  return { acc, events };
}

function sseClient(body: string): GatewayClient {
  return new GatewayClient({
    baseUrl: 'http://quirks.invalid',
    apiKey: 'k',
    maxRetries: 0,
    fetch: () => Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } })),
  });
}
const sse = (...objs: unknown[]) => objs.map((o) => `data: ${typeof o === 'string' ? o : JSON.stringify(o)}\n\n`).join('');
const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };

void describe('chunk shapes (wire-quirks "Chunks")', () => {
  void it('a usage-only chunk with choices: [] and chunks without choices do not crash and usage is kept', () => {
    const { acc } = run([d({ role: 'assistant', content: 'hi' }), { id: 'x', model: 'm' }, d({}, 'stop'), c([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })]);
    const r = acc.result();
    assert.equal(r.message.content, 'hi');
    assert.deepEqual(r.usage, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
  });

  void it('a choice without delta is skipped; its finish_reason still counts', () => {
    const { acc } = run([d({ content: 'a' }), c([{ index: 0, finish_reason: 'stop' }])]);
    assert.equal(acc.result().finishReason, 'stop');
    assert.equal(acc.result().message.content, 'a');
  });

  void it('usage: null on every chunk and usage on the first chunk are both handled', () => {
    const u = { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 };
    const { acc } = run([d({ content: 'a' }, null), c([{ index: 0, delta: { content: 'b' }, finish_reason: null }], { usage: null }), c([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: u })]);
    assert.deepEqual(acc.result().usage, u);
  });

  void it('usage without total_tokens gets the sum', () => {
    const { acc } = run([c([], { usage: { prompt_tokens: 4, completion_tokens: 6 } })]);
    assert.equal(acc.result().usage?.total_tokens, 10);
  });

  void it('the finish_reason is applied after the delta of the same chunk', () => {
    const { acc, events } = run([d({ content: 'last words' }, 'length')]);
    assert.equal(acc.result().message.content, 'last words');
    assert.deepEqual(events.map((e) => e.type), ['model', 'text', 'finish']);
  });

  void it('relay-specific finish reasons (error, abort, function_call) are accepted as strings', () => {
    for (const f of ['error', 'abort', 'function_call']) assert.equal(run([d({}, f)]).acc.result().finishReason, f);
  });

  void it('a whole message on the last chunk (message instead of delta) is accepted', () => {
    const { acc } = run([c([{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }])]);
    assert.equal(acc.result().message.content, 'whole');
  });

  void it('choices other than index 0 are ignored (we never ask for n > 1)', () => {
    const { acc } = run([c([{ index: 1, delta: { content: 'other' } }, { index: 0, delta: { content: 'mine' } }])]);
    assert.equal(acc.result().message.content, 'mine');
  });

  void it('reasoning and reasoning_content in one stream are joined in arrival order', () => {
    const { acc } = run([d({ reasoning_content: 'a' }), d({ reasoning: 'b' }), d({ reasoning_content: 'c' })]);
    assert.equal(acc.result().message.reasoning_content, 'abc');
  });

  void it('a non-chunk is an invalid_response carrying the partial text', () => {
    const acc = new ChatAccumulator();
    acc.push(d({ content: 'so far' }));
    assert.throws(() => acc.push({ choices: 'nope' }), (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_response' && e.partial?.message.content === 'so far');
  });
});

void describe('tool-call deltas (wire-quirks "Tool-call deltas")', () => {
  void it('an id repeated on every fragment continues the same call', () => {
    const { acc } = run([
      d({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      d({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: ':1}' } }] }),
    ]);
    assert.deepEqual(acc.result().message.tool_calls, [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }]);
  });

  void it('arguments sent as an object are serialised', () => {
    const { acc } = run([d({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: { a: 1 } } }] })]);
    assert.equal(acc.result().message.tool_calls?.[0]?.function.arguments, '{"a":1}');
  });

  void it('a call that never got an id receives a stable one so a tool message can answer it', () => {
    const { acc } = run([d({ tool_calls: [{ function: { name: 'f', arguments: '{}' } }] })]);
    assert.equal(acc.result().message.tool_calls?.[0]?.id, 'call_gs_0');
  });

  void it('indexes that start at 1 or skip numbers still give a dense list in arrival order', () => {
    const { acc } = run([
      d({ tool_calls: [{ index: 3, id: 'b', function: { name: 'g', arguments: '{}' } }] }),
      d({ tool_calls: [{ index: 1, id: 'a', function: { name: 'f', arguments: '{}' } }] }),
    ]);
    assert.deepEqual(acc.result().message.tool_calls?.map((t) => t.id), ['b', 'a']);
  });

  void it('text beside tool calls is kept; empty text beside tool calls is null', () => {
    const withText = run([d({ content: 'Let me look.' }), d({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] })]);
    assert.equal(withText.acc.result().message.content, 'Let me look.');
    const without = run([d({ role: 'assistant', content: '' }), d({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] })]);
    assert.equal(without.acc.result().message.content, null);
  });
});

void describe('stream-level quirks through an injected fetch', () => {
  void it('an "event: error" event is a stream error with its message and the partial text', async () => {
    const body = sse(d({ role: 'assistant', content: 'partial ' })) + 'event: error\ndata: {"message":"quota exhausted","type":"None","code":"insufficient_quota"}\n\n';
    try {
      await sseClient(body).streamChat(req);
      assert.fail('expected a stream error');
    } catch (e) {
      assert.ok(e instanceof GatewayError);
      assert.equal(e.kind, 'stream');
      assert.match(e.message, /quota exhausted/);
      assert.equal(e.code, 'insufficient_quota');
      assert.equal(e.type, undefined, '"None" counts as absent');
      assert.equal(e.partial?.message.content, 'partial ');
    }
  });

  void it('a data line that is not JSON is skipped and logged, the answer still completes', async () => {
    const lines: string[] = [];
    const c2 = new GatewayClient({
      baseUrl: 'http://quirks.invalid',
      log: (_l, m) => lines.push(m),
      fetch: () => Promise.resolve(new Response(sse(d({ content: 'ok' }), 'not json', d({}, 'stop'), '[DONE]'), { headers: { 'content-type': 'text/event-stream' } })),
    });
    const r = await c2.streamChat(req);
    assert.equal(r.message.content, 'ok');
    assert.ok(lines.some((l) => l.includes('not JSON')));
  });

  void it('a final event without the closing blank line is still read', async () => {
    const body = sse(d({ content: 'tail' })) + `data: ${JSON.stringify(d({}, 'stop'))}`;
    const r = await sseClient(body).streamChat(req);
    assert.equal(r.finishReason, 'stop');
  });

  void it('a gateway that ignores stream: true and answers JSON still gives the answer and the events', async () => {
    const events: ChatStreamEvent[] = [];
    const c3 = new GatewayClient({
      baseUrl: 'http://quirks.invalid',
      fetch: () => Promise.resolve(Response.json({ id: 'x', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }] })),
    });
    const r = await c3.streamChat(req, { onEvent: (e) => events.push(e) });
    assert.equal(r.message.content, 'plain');
    assert.ok(events.some((e) => e.type === 'text' && e.text === 'plain'));
  });

  void it('a non-streaming 200 that carries the error object is reported as that error, not as an empty answer', async () => {
    const c5 = new GatewayClient({
      baseUrl: 'http://quirks.invalid',
      fetch: () => Promise.resolve(Response.json({ error: { message: 'upstream timed out', type: 'upstream_error', code: 'timeout' } })),
    });
    await assert.rejects(c5.chat(req), (e: unknown) => e instanceof GatewayError && e.kind === 'server' && /upstream timed out/.test(e.message) && e.code === 'timeout');
  });

  void it('non-streaming tool calls without index are kept separate', async () => {
    const c4 = new GatewayClient({
      baseUrl: 'http://quirks.invalid',
      fetch: () =>
        Promise.resolve(
          Response.json({
            id: 'x',
            choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: 'tool_calls' }],
          }),
        ),
    });
    const r = await c4.chat(req);
    assert.deepEqual(r.message.tool_calls?.map((t) => t.function.name), ['f', 'g']);
  });
});
