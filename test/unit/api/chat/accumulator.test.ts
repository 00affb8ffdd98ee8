// Chunk shapes the local gateway does not produce but relays do (wire-quirks.md "Chunks" and
// "Tool-call deltas"), fed to the accumulator directly or as SSE bytes through an injected fetch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatAccumulator } from '../../../../src/api/chat/accumulator';
import type { ChatStreamEvent, ToolCall, ToolMessage } from '../../../../src/api/chat/wire';
import { GatewayClient } from '../../../../src/api/client';
import { GatewayError } from '../../../../src/api/transport/errors';
import type { RequestDefaults } from '../../../../src/chat/conversation/core/request';
import type { ToolExecutor } from '../../../../src/chat/tools/core/seam';
import { runTurn } from '../../../../src/chat/session/core/turnRunner';
import type { AssistantMessage, Conversation, ToolResultMessage } from '../../../../src/shared/protocol';
import type { ToolStyle } from '../../../gateway/faults';
import { UNSET_PARAMS, useGateway, userConversation } from '../../../support/helpers';

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
    baseUrl: 'https://quirks.invalid',
    apiKey: 'k',
    maxRetries: 0,
    fetch: () => Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } })),
  });
}
const sse = (...objs: unknown[]) =>
  objs.map((o) => `data: ${typeof o === 'string' ? o : JSON.stringify(o)}\n\n`).join('');
const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };

void describe('chunk shapes (wire-quirks "Chunks")', () => {
  void it('a usage-only chunk with choices: [] and chunks without choices do not crash and usage is kept', () => {
    const { acc } = run([
      d({ role: 'assistant', content: 'hi' }),
      { id: 'x', model: 'm' },
      d({}, 'stop'),
      c([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
    ]);
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
    const { acc } = run([
      d({ content: 'a' }, null),
      c([{ index: 0, delta: { content: 'b' }, finish_reason: null }], { usage: null }),
      c([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: u }),
    ]);
    assert.deepEqual(acc.result().usage, u);
  });

  void it('usage without total_tokens gets the sum', () => {
    const { acc } = run([c([], { usage: { prompt_tokens: 4, completion_tokens: 6 } })]);
    assert.equal(acc.result().usage?.total_tokens, 10);
  });

  void it('the finish_reason is applied after the delta of the same chunk', () => {
    const { acc, events } = run([d({ content: 'last words' }, 'length')]);
    assert.equal(acc.result().message.content, 'last words');
    assert.deepEqual(
      events.map((e) => e.type),
      ['model', 'text', 'finish'],
    );
  });

  void it('relay-specific finish reasons (error, abort, function_call) are accepted as strings', () => {
    for (const f of ['error', 'abort', 'function_call']) assert.equal(run([d({}, f)]).acc.result().finishReason, f);
  });

  void it('a whole message on the last chunk (message instead of delta) is accepted', () => {
    const { acc } = run([c([{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }])]);
    assert.equal(acc.result().message.content, 'whole');
  });

  void it('choices other than index 0 are ignored (we never ask for n > 1)', () => {
    const { acc } = run([
      c([
        { index: 1, delta: { content: 'other' } },
        { index: 0, delta: { content: 'mine' } },
      ]),
    ]);
    assert.equal(acc.result().message.content, 'mine');
  });

  void it('reasoning and reasoning_content in one stream are joined in arrival order', () => {
    const { acc } = run([d({ reasoning_content: 'a' }), d({ reasoning: 'b' }), d({ reasoning_content: 'c' })]);
    assert.equal(acc.result().message.reasoning_content, 'abc');
  });

  void it('a non-chunk is an invalid_response carrying the partial text', () => {
    const acc = new ChatAccumulator();
    acc.push(d({ content: 'so far' }));
    assert.throws(
      () => acc.push({ choices: 'nope' }),
      (e: unknown) =>
        e instanceof GatewayError && e.kind === 'invalid_response' && e.partial?.message.content === 'so far',
    );
  });
});

void describe('tool-call deltas (wire-quirks "Tool-call deltas")', () => {
  void it('an id repeated on every fragment continues the same call', () => {
    const { acc } = run([
      d({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      d({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: ':1}' } }] }),
    ]);
    assert.deepEqual(acc.result().message.tool_calls, [
      { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
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
    assert.deepEqual(
      acc.result().message.tool_calls?.map((t) => t.id),
      ['b', 'a'],
    );
  });

  void it('text beside tool calls is kept; empty text beside tool calls is null', () => {
    const withText = run([
      d({ content: 'Let me look.' }),
      d({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] }),
    ]);
    assert.equal(withText.acc.result().message.content, 'Let me look.');
    const without = run([
      d({ role: 'assistant', content: '' }),
      d({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] }),
    ]);
    assert.equal(without.acc.result().message.content, null);
  });
});

void describe('stream-level quirks through an injected fetch', () => {
  void it('an "event: error" event is a stream error with its message and the partial text', async () => {
    const body =
      sse(d({ role: 'assistant', content: 'partial ' })) +
      'event: error\ndata: {"message":"quota exhausted","type":"None","code":"insufficient_quota"}\n\n';
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
      baseUrl: 'https://quirks.invalid',
      log: (_l, m) => lines.push(m),
      fetch: () =>
        Promise.resolve(
          new Response(sse(d({ content: 'ok' }), 'not json', d({}, 'stop'), '[DONE]'), {
            headers: { 'content-type': 'text/event-stream' },
          }),
        ),
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
      baseUrl: 'https://quirks.invalid',
      fetch: () =>
        Promise.resolve(
          Response.json({
            id: 'x',
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }],
          }),
        ),
    });
    const r = await c3.streamChat(req, { onEvent: (e) => events.push(e) });
    assert.equal(r.message.content, 'plain');
    assert.ok(events.some((e) => e.type === 'text' && e.text === 'plain'));
  });

  void it('a non-streaming 200 that carries the error object is reported as that error, not as an empty answer', async () => {
    const c5 = new GatewayClient({
      baseUrl: 'https://quirks.invalid',
      fetch: () =>
        Promise.resolve(
          Response.json({ error: { message: 'upstream timed out', type: 'upstream_error', code: 'timeout' } }),
        ),
    });
    await assert.rejects(
      c5.chat(req),
      (e: unknown) =>
        e instanceof GatewayError &&
        e.kind === 'server' &&
        /upstream timed out/.test(e.message) &&
        e.code === 'timeout',
    );
  });

  void it('non-streaming tool calls without index are kept separate', async () => {
    const c4 = new GatewayClient({
      baseUrl: 'https://quirks.invalid',
      fetch: () =>
        Promise.resolve(
          Response.json({
            id: 'x',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
                    { type: 'function', function: { name: 'g', arguments: '{}' } },
                  ],
                },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        ),
    });
    const r = await c4.chat(req);
    assert.deepEqual(
      r.message.tool_calls?.map((t) => t.function.name),
      ['f', 'g'],
    );
  });
});

void describe('tool-call ids: repeated or empty ids get unique ones', () => {
  /*
   * Relays that repeat one tool-call id for several calls of an answer, or send "" as the id: the
   * final assistant message still has one unique id per call, ids that were unique stay as sent,
   * and the tool loop answers every call with its own tool message (the gateway refuses a request
   * whose assistant message has duplicate ids or whose tool messages do not match them).
   */

  // Faults, counts and the request log read by sentBack() are cleared before each test.
  const gw = useGateway();

  const defaults = (stream: boolean): RequestDefaults => ({
    model: 'gw-chat',
    systemPrompt: '',
    params: { ...UNSET_PARAMS, stream },
  });

  /** Answers each call with its own name and arguments, so a mix-up shows in the model's summary. */
  class EchoExecutor implements ToolExecutor {
    readonly seen: ToolCall[][] = [];
    definitions() {
      return ['read_file', 'list_directory', 'find_files'].map((name) => ({
        type: 'function' as const,
        function: { name, parameters: { type: 'object' } },
      }));
    }
    toolChoice() {
      return 'auto' as const;
    }
    execute(calls: ToolCall[]): Promise<ToolMessage[]> {
      this.seen.push(calls);
      return Promise.resolve(
        calls.map((c) => ({
          role: 'tool' as const,
          tool_call_id: c.id,
          content: `ran ${c.function.name} ${c.function.arguments}`,
        })),
      );
    }
  }

  const SCRIPT = `#tools ${JSON.stringify([
    {
      calls: [
        { name: 'read_file', arguments: { path: 'a.ts' } },
        { name: 'list_directory', arguments: { path: 'src' } },
        { name: 'find_files', arguments: { pattern: '*.md' } },
      ],
    },
  ])}`;

  async function loop(stream: boolean): Promise<{ c: Conversation; ex: EchoExecutor; status: string }> {
    const ex = new EchoExecutor();
    const c = userConversation(SCRIPT);
    const out = await runTurn({
      backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
      conversation: c,
      defaults: defaults(stream),
      executor: ex,
      maxRounds: 5,
      signal: new AbortController().signal,
      callbacks: { onMessage: () => undefined, onDelta: () => undefined },
    });
    const last = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1);
    return { c, ex, status: `${out.status}${last?.error ? `: ${last.error.detail}` : ''}` };
  }

  /** The wire ids of the first answer, read from the gateway's own request log of the second request. */
  function sentBack(): { calls: string[]; tools: string[] } {
    const second = gw.requests().filter((r) => r.route === '/v1/chat/completions')[1]?.body as
      { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] } | undefined;
    assert.ok(second, 'a second chat request was sent');
    return {
      calls: second.messages.find((m) => m.role === 'assistant')?.tool_calls?.map((t) => t.id) ?? [],
      tools: second.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id ?? ''),
    };
  }

  function assertEachCallAnswered(c: Conversation, ex: EchoExecutor): void {
    const calls = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls ?? [];
    assert.deepEqual(
      calls.map((x) => x.function.name),
      ['read_file', 'list_directory', 'find_files'],
    );
    const ids = calls.map((x) => x.id);
    assert.equal(new Set(ids).size, 3, `ids are unique: ${ids.join(', ')}`);
    assert.ok(
      ids.every((id) => id !== ''),
      'no id is empty',
    );
    assert.deepEqual(
      ex.seen[0]?.map((x) => x.id),
      ids,
      'the executor got the unique ids',
    );
    const tms = c.messages.filter((m): m is ToolResultMessage => m.role === 'tool');
    assert.deepEqual(
      tms.map((t) => t.toolCallId),
      ids,
      'one tool message per call, in call order',
    );
    assert.deepEqual(
      tms.map((t) => t.content),
      ['ran read_file {"path":"a.ts"}', 'ran list_directory {"path":"src"}', 'ran find_files {"pattern":"*.md"}'],
    );
    const back = sentBack();
    assert.deepEqual(back.calls, ids);
    assert.deepEqual(back.tools, ids);
    // The gateway names each result by the call its tool_call_id points at: a mix-up would show here.
    const final = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)?.content ?? '';
    assert.equal(
      final,
      'Done. Tool results: read_file=ran read_file {"path":"a.ts"}, list_directory=ran list_directory {"path":"src"}, find_files=ran find_files {"pattern":"*.md"}',
    );
  }

  /** Runs the tool loop and asserts that it finished and answered each of the three calls. */
  async function assertLoopAnswersEach(stream: boolean): Promise<void> {
    const { c, ex, status } = await loop(stream);
    assert.equal(status, 'done');
    assertEachCallAnswered(c, ex);
  }

  const STYLES: ToolStyle[] = ['canonical', 'no-index', 'all-index-0', 'whole', 'multi-per-chunk', 'args-with-finish'];

  void describe('tool calls with repeated or empty ids, through the local gateway', () => {
    for (const toolIds of ['repeat', 'empty'] as const) {
      for (const style of STYLES) {
        void it(`streamed "${style}" with ${toolIds === 'repeat' ? 'one id repeated on all three calls' : 'empty ids'} (5-byte pieces): each call is answered by its own tool message`, async () => {
          gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolStyle: style, toolIds, split: 5 });
          await assertLoopAnswersEach(true);
        });
      }
      void it(`non-streaming with ${toolIds === 'repeat' ? 'one id repeated' : 'empty ids'}: each call is answered by its own tool message`, async () => {
        gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolIds });
        await assertLoopAnswersEach(false);
      });
    }

    void it('a repeated id keeps its first call as sent; the later call gets a suffixed id', async () => {
      gw.fault({ match: { path: '/v1/chat/completions' }, times: 1, toolIds: 'repeat' });
      const { c } = await loop(true);
      const ids =
        c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls?.map((x) => x.id) ?? [];
      const first = ids[0] ?? '';
      assert.match(first, /^call_[A-Za-z0-9_-]{12}$/);
      assert.deepEqual(ids, [first, `${first}_2`, `${first}_3`]);
    });

    void it('unique ids from the gateway are kept exactly as sent (the resumed conversation uses the ids the server knows)', async () => {
      const { c, ex } = await loop(true);
      const ids =
        c.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.toolCalls?.map((x) => x.id) ?? [];
      assert.equal(ids.length, 3);
      for (const id of ids) assert.match(id, /^call_[A-Za-z0-9_-]{12}$/, 'a gateway id, not a generated one');
      assertEachCallAnswered(c, ex);
    });
  });

  /** Feeds tool-call deltas straight into the accumulator (shapes the gateway does not produce). */
  function accumulate(deltas: unknown[]): { id: string; name: string; args: string }[] {
    const acc = new ChatAccumulator();
    for (const tool_calls of deltas) acc.push({ choices: [{ index: 0, delta: { tool_calls } }] });
    acc.push({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    return (acc.result().message.tool_calls ?? []).map((t) => ({
      id: t.id,
      name: t.function.name,
      args: t.function.arguments,
    }));
  }

  void describe('tool-call ids in the accumulated message', () => {
    void it('an id reused at a different index opens its own call and is renamed; the unique ones stay', () => {
      const calls = accumulate([
        [{ index: 0, id: 'call_0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }],
        [{ index: 1, id: 'call_7', type: 'function', function: { name: 'b', arguments: '{}' } }],
        [{ index: 2, id: 'call_0', type: 'function', function: { name: 'c', arguments: '' } }],
        [{ index: 2, function: { arguments: '{"y":2}' } }],
      ]);
      assert.deepEqual(calls, [
        { id: 'call_0', name: 'a', args: '{"x":1}' },
        { id: 'call_7', name: 'b', args: '{}' },
        { id: 'call_0_2', name: 'c', args: '{"y":2}' },
      ]);
    });

    void it('a generated id never takes an id another call of the answer was sent with', () => {
      const calls = accumulate([
        [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '{}' } }],
        [{ index: 1, id: 'call_0', function: { name: 'b', arguments: '{}' } }],
        [{ index: 2, id: 'call_0_2', function: { name: 'c', arguments: '{}' } }],
        [{ index: 3, id: '', function: { name: 'd', arguments: '{}' } }],
        [{ index: 4, id: 'call_gs_3', function: { name: 'e', arguments: '{}' } }],
      ]);
      assert.deepEqual(
        calls.map((c) => c.id),
        ['call_0', 'call_0_3', 'call_0_2', 'call_gs_3_2', 'call_gs_3'],
      );
    });

    void it('a repeated id near the 40-character limit is replaced by a short generated one', () => {
      const long = `call_${'x'.repeat(35)}`;
      const calls = accumulate([
        [{ index: 0, id: long, function: { name: 'a', arguments: '{}' } }],
        [{ index: 1, id: long, function: { name: 'b', arguments: '{}' } }],
      ]);
      assert.deepEqual(
        calls.map((c) => c.id),
        [long, 'call_gs_1'],
      );
    });

    void it('id and name repeated on every fragment of one call still make one call', () => {
      const calls = accumulate([
        [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '{"path":' } }],
        [{ index: 0, id: 'call_0', function: { name: 'a', arguments: '"x.ts"}' } }],
      ]);
      assert.deepEqual(calls, [{ id: 'call_0', name: 'a', args: '{"path":"x.ts"}' }]);
    });

    void it('without index or id, a named fragment after complete arguments starts the next call', () => {
      const calls = accumulate([
        [{ type: 'function', function: { name: 'a', arguments: '' } }],
        [{ function: { arguments: '{"p":1}' } }],
        [{ type: 'function', function: { name: 'a', arguments: '' } }],
        [{ function: { arguments: '{"p":2}' } }],
      ]);
      assert.deepEqual(calls, [
        { id: 'call_gs_0', name: 'a', args: '{"p":1}' },
        { id: 'call_gs_1', name: 'a', args: '{"p":2}' },
      ]);
    });
  });
});

// Relays that repeat one tool-call id (or send none) for every parallel call give the
// accumulator only the tool name to tell calls apart. A first call without parameters may come with
// `arguments: ""`; the next call's fragment, naming another tool, renamed that call instead of
// opening its own, so the parameterless call was silently lost.
void describe('calls told apart by tool name alone', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gw-chat' };
  const toolChunk = (tool_calls: unknown[], finish_reason: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta: { tool_calls }, finish_reason }],
  });

  function calls(id: string | undefined): { id: string; name: string; args: string }[] {
    const a = new ChatAccumulator();
    a.push({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    a.push(toolChunk([{ index: 0, id, type: 'function', function: { name: 'get_time', arguments: '' } }]));
    a.push(toolChunk([{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '' } }]));
    a.push(toolChunk([{ index: 0, function: { arguments: '{"path":' } }]));
    a.push(toolChunk([{ index: 0, function: { arguments: '"a.md"}' } }], 'tool_calls'));
    return (a.result().message.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      args: c.function.arguments,
    }));
  }

  void describe('a parameterless call followed by another tool under one repeated id', () => {
    for (const [label, id] of [
      ['the same id "call_0"', 'call_0'],
      ['an empty id', ''],
      ['no id', undefined],
    ] as const) {
      void it(`with ${label} on both calls, both calls are kept, each with its own name and arguments`, () => {
        const got = calls(id);
        assert.deepEqual(
          got.map((c) => [c.name, c.args]),
          [
            ['get_time', ''],
            ['read_file', '{"path":"a.md"}'],
          ],
        );
        assert.equal(new Set(got.map((c) => c.id)).size, 2, `ids are unique: ${got.map((c) => c.id).join(', ')}`);
      });
    }

    void it('a server that repeats the same name on every fragment of one call still gives one call', () => {
      const a = new ChatAccumulator();
      a.push(toolChunk([{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '' } }]));
      a.push(
        toolChunk([
          { index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":' } },
        ]),
      );
      a.push(
        toolChunk(
          [{ index: 0, id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '"a.md"}' } }],
          'tool_calls',
        ),
      );
      assert.deepEqual(
        a.result().message.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments]),
        [['call_0', 'read_file', '{"path":"a.md"}']],
      );
    });
  });
});

// Relays that send the tool's name on every fragment made the accumulator try JSON.parse on
// the whole argument text so far at every fragment (to see whether a named fragment opens the next
// call): quadratic in the argument size. 200 KB of arguments in 20-byte pieces took 3.4 s of the
// extension host's thread against 0.5 s without the names. Counted here as parses, not as time.
void describe('arguments parsed once per call, not once per fragment', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gw-chat' };

  /** How often `JSON.parse` read a text of at least `minLength` characters while `fn` ran. */
  function bigParses(minLength: number, fn: () => void): number {
    const original = JSON.parse;
    let n = 0;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (typeof text === 'string' && text.length >= minLength) n++;
      return original(text, reviver);
    }) as typeof JSON.parse;
    try {
      fn();
    } finally {
      JSON.parse = original;
    }
    return n;
  }

  void describe('the cost of a tool name repeated on every fragment', () => {
    void it('50 KB of arguments in 20-byte fragments that all repeat id and name are parsed a handful of times, not once per fragment', () => {
      const args = JSON.stringify({ path: 'big.ts', content: 'x{y}z"q\\"}'.repeat(5_000) });
      const a = new ChatAccumulator();
      const parses = bigParses(10_000, () => {
        for (let i = 0; i < args.length; i += 20) {
          a.push({
            ...head,
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    {
                      index: 0,
                      id: 'call_0',
                      type: 'function',
                      function: { name: 'write_file', arguments: args.slice(i, i + 20) },
                    },
                  ],
                },
                finish_reason: null,
              },
            ],
          });
        }
        // The next call under the same id, opened by its name once the first call's JSON is complete.
        a.push({
          ...head,
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_0',
                    type: 'function',
                    function: { name: 'read_file', arguments: '{"path":"a"}' },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        });
      });
      const calls = a.result().message.tool_calls ?? [];
      assert.deepEqual(
        calls.map((c) => c.function.name),
        ['write_file', 'read_file'],
        'the named fragment after complete arguments still opens the next call',
      );
      assert.equal(calls[0]?.function.arguments, args, 'the first call has all its arguments');
      assert.ok(
        parses <= 3,
        `the growing arguments were parsed ${parses} times for ${Math.ceil(args.length / 20)} fragments`,
      );
    });
  });
});
