// Streaming chat (spec 6) against the real local gateway: every SSE framing knob, every tool-call
// deviation of wire-quirks.md, usage positions, reasoning fields, stream_options fallback,
// truncation, mid-stream errors, the idle watchdog and stopping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest, ChatStreamEvent, ToolDefinition } from '../../../src/api/chat/wire';
import { GatewayClient } from '../../../src/api/client';
import type { Fault } from '../../gateway/server';
import { gatewayFailure as failure, useGateway, gatewayFailure } from '../../support/helpers';

const gw = useGateway();

const client = (extra: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}) =>
  new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, ...extra });
const chatCount = () => gw.counts()['POST /v1/chat/completions'] ?? 0;
const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gw-chat',
  messages: [{ role: 'user', content: text }],
  ...extra,
});
const chatFault = (f: Omit<Fault, 'match'>) => gw.fault({ match: { path: '/v1/chat/completions' }, ...f });

const TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
  { type: 'function', function: { name: 'list_dir', parameters: { type: 'object' } } },
];
const PARALLEL = JSON.stringify([
  {
    calls: [
      { name: 'read_file', arguments: { path: 'src/a.ts' } },
      {
        name: 'list_dir',
        arguments: { path: '.', depth: 2, note: 'a longer argument so that it is split over several fragments' },
      },
      { name: 'read_file', arguments: { path: 'README.md' } },
    ],
  },
]);

void describe('streamed text equals the non-streamed answer (spec 6)', () => {
  void it('a plain answer streams word by word and accumulates to the same text as the non-streaming call', async () => {
    const events: ChatStreamEvent[] = [];
    const streamed = await client().streamChat(ask('hello streaming world'), { onEvent: (e) => events.push(e) });
    const whole = await client().chat(ask('hello streaming world'));
    assert.equal(streamed.message.content, 'Echo: hello streaming world');
    assert.equal(whole.message.content, streamed.message.content);
    assert.equal(streamed.finishReason, 'stop');
    const texts = events.filter((e) => e.type === 'text');
    assert.ok(texts.length > 2, 'several text deltas');
    assert.equal(texts.map((e) => e.text).join(''), streamed.message.content);
    assert.ok(events.some((e) => e.type === 'finish' && e.reason === 'stop'));
    assert.ok(events.some((e) => e.type === 'usage'));
    assert.equal(streamed.model, 'gw-chat');
    assert.ok(streamed.id?.startsWith('chatcmpl'));
  });

  void it('the model that answered is reported (an internally aligned version)', async () => {
    const r = await client().streamChat(ask('hi', { model: 'gw-latest' }));
    assert.equal(r.model, 'gw-chat-2026-11');
  });

  void it('a long markdown answer with code arrives complete', async () => {
    const s = await client().streamChat(ask('#markdown'));
    const n = await client().chat(ask('#markdown'));
    assert.ok((s.message.content ?? '').includes('```'));
    assert.equal(s.message.content, n.message.content);
  });
});

void describe('SSE framing (wire-quirks "SSE framing")', () => {
  const variants: Array<[string, Omit<Fault, 'match'>]> = [
    ['1-byte chunks', { split: 1 }],
    ['CRLF line ends', { crlf: true }],
    ['CRLF split byte by byte (a CR/LF pair across reads)', { crlf: true, split: 1 }],
    ['keep-alive comment lines', { keepAlive: true }],
    ['event: message lines (names other than error are ignored)', { eventNames: true }],
    ['data: without a space', { noSpace: true }],
    ['everything at once in 3-byte pieces', { crlf: true, keepAlive: true, eventNames: true, noSpace: true, split: 3 }],
  ];
  for (const [name, f] of variants) {
    void it(`${name} give the same text`, async () => {
      chatFault(f);
      const r = await client().streamChat(ask('framing check one two'));
      assert.equal(r.message.content, 'Echo: framing check one two');
      assert.equal(r.finishReason, 'stop');
      assert.ok(r.usage && r.usage.total_tokens > 0);
    });
  }

  void it('a multi-byte character split across reads is decoded intact', async () => {
    chatFault({ split: 1 });
    const r = await client().streamChat(ask('#say héllo wörld — 你好 🚀'));
    assert.equal(r.message.content, 'héllo wörld — 你好 🚀');
  });
});

void describe('first chunk variants (wire-quirks "Chunks")', () => {
  for (const firstDelta of ['empty', 'null-content', 'refusal-null'] as const) {
    void it(`a first delta of kind ${firstDelta} is accepted`, async () => {
      chatFault({ firstDelta });
      const r = await client().streamChat(ask('first delta'));
      assert.equal(r.message.content, 'Echo: first delta');
    });
  }
});

void describe('tool-call deltas (wire-quirks "Tool-call deltas")', () => {
  for (const toolStyle of [
    'canonical',
    'no-index',
    'all-index-0',
    'whole',
    'multi-per-chunk',
    'args-with-finish',
  ] as const) {
    void it(`three parallel calls in ${toolStyle} style come out as three separate calls with their arguments`, async () => {
      chatFault({ toolStyle, split: 7 });
      const events: ChatStreamEvent[] = [];
      const r = await client().streamChat(ask(`#tools ${PARALLEL}`, { tools: TOOLS }), {
        onEvent: (e) => events.push(e),
      });
      assert.equal(r.finishReason, 'tool_calls');
      const calls = r.message.tool_calls ?? [];
      assert.equal(calls.length, 3);
      assert.deepEqual(
        calls.map((c) => c.function.name),
        ['read_file', 'list_dir', 'read_file'],
      );
      assert.deepEqual(JSON.parse(calls[0]!.function.arguments), { path: 'src/a.ts' });
      assert.deepEqual(JSON.parse(calls[1]!.function.arguments), {
        path: '.',
        depth: 2,
        note: 'a longer argument so that it is split over several fragments',
      });
      assert.deepEqual(JSON.parse(calls[2]!.function.arguments), { path: 'README.md' });
      assert.equal(new Set(calls.map((c) => c.id)).size, 3, 'distinct ids');
      for (const c of calls) assert.ok(c.id.startsWith('call_'), c.id);
      // The events carry the same fragments, keyed by the final position.
      for (let i = 0; i < 3; i++) {
        const args = events
          .filter((e) => e.type === 'tool_call' && e.index === i)
          .map((e) => (e.type === 'tool_call' ? e.argumentsDelta : ''))
          .join('');
        assert.equal(args, calls[i]!.function.arguments);
      }
    });
  }

  void it('a tool-call turn round-trips: the answers go back as tool messages and the model finishes', async () => {
    const c = client();
    const req = ask(`#tools ${PARALLEL}`, { tools: TOOLS });
    const first = await c.streamChat(req);
    const calls = first.message.tool_calls ?? [];
    const next: ChatRequest = {
      ...req,
      messages: [
        ...req.messages,
        { role: 'assistant', content: first.message.content, tool_calls: calls },
        ...calls.map((t) => ({ role: 'tool' as const, tool_call_id: t.id, content: `result of ${t.function.name}` })),
      ],
    };
    const second = await c.streamChat(next);
    assert.equal(second.finishReason, 'stop');
    assert.match(second.message.content ?? '', /^Done\. Tool results: read_file=result of read_file/);
  });

  void it('a reasoning model gets its reasoning_content back on a tool-call turn and accepts the next request', async () => {
    const c = client();
    const req: ChatRequest = {
      model: 'gw-reasoner',
      messages: [
        { role: 'user', content: `#tools ${JSON.stringify([{ calls: [{ name: 'list_dir', arguments: {} }] }])}` },
      ],
      tools: TOOLS,
    };
    const first = await c.streamChat(req);
    assert.ok(first.message.reasoning_content && first.message.reasoning_content.length > 0);
    const call = first.message.tool_calls?.[0];
    assert.ok(call);
    const second = await c.streamChat({
      ...req,
      messages: [
        ...req.messages,
        { role: 'assistant', content: null, tool_calls: [call], reasoning_content: first.message.reasoning_content },
        { role: 'tool', tool_call_id: call.id, content: 'a.ts' },
      ],
    });
    assert.equal(second.finishReason, 'stop');
  });
});

void describe('reasoning deltas (wire-quirks "Chunks")', () => {
  for (const reasoningField of ['reasoning_content', 'reasoning'] as const) {
    void it(`reasoning sent as delta.${reasoningField} is joined fragment by fragment, not overwritten`, async () => {
      chatFault({ reasoningField });
      const events: ChatStreamEvent[] = [];
      const r = await client().streamChat(ask('#reasoning think'), { onEvent: (e) => events.push(e) });
      const frags = events.filter((e) => e.type === 'reasoning').map((e) => (e.type === 'reasoning' ? e.text : ''));
      assert.ok(frags.length > 1, 'several reasoning fragments');
      assert.equal(r.message.reasoning_content, frags.join(''));
      assert.ok((r.message.content ?? '').length > 0);
    });
  }
});

void describe('usage (wire-quirks "Chunks")', () => {
  for (const usage of ['separate', 'finish'] as const) {
    void it(`usage on the ${usage} chunk is kept`, async () => {
      chatFault({ usage });
      const r = await client().streamChat(ask('count my tokens'));
      assert.ok(r.usage);
      assert.equal(r.usage.total_tokens, r.usage.prompt_tokens + r.usage.completion_tokens);
      assert.ok(r.usage.completion_tokens > 0);
    });
  }

  void it('a relay that drops the usage chunk still gives the full answer, without usage', async () => {
    chatFault({ usage: 'none' });
    const r = await client().streamChat(ask('no usage here'));
    assert.equal(r.message.content, 'Echo: no usage here');
    assert.equal(r.usage, undefined);
  });

  void it('stream_options.include_usage is sent with every streaming request', async () => {
    await client().streamChat(ask('x'));
    const body = gw.requests()[0]?.body as { stream?: boolean; stream_options?: { include_usage?: boolean } };
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
  });
});

void describe('stream_options fallback (wire-quirks "Chunks")', () => {
  for (const status of [400, 422] as const) {
    void it(`a ${status} for stream_options is retried once without it, and later calls skip it`, async () => {
      chatFault({ rejectStreamOptions: status, times: -1 });
      const c = client();
      const r = await c.streamChat(ask('fallback please'));
      assert.equal(r.message.content, 'Echo: fallback please');
      const reqs = gw.requests();
      assert.equal(reqs.length, 2);
      assert.ok((reqs[0]?.body as Record<string, unknown>).stream_options);
      assert.equal((reqs[1]?.body as Record<string, unknown>).stream_options, undefined);
      gw.resetCounts();
      await c.streamChat(ask('again'));
      assert.equal(chatCount(), 1, 'the client remembers the gateway rejects stream_options');
    });
  }

  void it('a 400 that is not about stream_options is reported after one retry without it', async () => {
    chatFault({
      status: 400,
      times: 2,
      body: { error: { message: 'messages are broken', type: 'invalid_request_error', code: 'bad' } },
    });
    const err = await failure(client().streamChat(ask('x')));
    assert.equal(err.kind, 'bad_request');
    assert.match(err.message, /messages are broken/);
    assert.equal(chatCount(), 2);
  });
});

void describe('broken streams keep the text received so far', () => {
  void it('a stream without finish_reason but with [DONE] is truncated, with the partial text kept', async () => {
    chatFault({ noFinishReason: true });
    const err = await failure(client().streamChat(ask('cut me off')));
    assert.equal(err.kind, 'truncated');
    assert.match(err.message, /\[DONE\]/);
    assert.equal(err.partial?.message.content, 'Echo: cut me off');
  });

  void it('a connection dropped mid-stream is truncated, the partial text kept, and nothing retried', async () => {
    const full = (await client().chat(ask('#long 300'))).message.content ?? '';
    gw.resetCounts();
    chatFault({ dropAfterBytes: 4000 });
    const err = await failure(client().streamChat(ask('#long 300')));
    assert.equal(err.kind, 'truncated');
    const text = err.partial?.message.content ?? '';
    assert.ok(text.length > 20 && text.length < full.length, `partial text: ${text.length} of ${full.length} chars`);
    assert.ok(full.startsWith(text), 'the partial text is a prefix of the full answer');
    assert.equal(chatCount(), 1, 'never retried after the first byte');
  });

  void it('a mid-stream error event (HTTP 200 already sent) is a stream error with its message and the partial text', async () => {
    chatFault({
      midStreamError: { afterChunks: 3, message: 'upstream overloaded', type: 'server_error', code: 'overloaded' },
    });
    const err = await failure(client().streamChat(ask('one two three four five six')));
    assert.equal(err.kind, 'stream');
    assert.match(err.message, /upstream overloaded/);
    assert.equal(err.code, 'overloaded');
    assert.ok((err.partial?.message.content ?? '').startsWith('Echo:'));
    assert.equal(chatCount(), 1);
  });

  void it('a stalled stream is cut by the idle watchdog, keeping the partial text', async () => {
    chatFault({ stallAfterChunks: 3 });
    const t0 = Date.now();
    const err = await failure(client({ idleTimeoutMs: 300 }).streamChat(ask('one two three four five')));
    assert.equal(err.kind, 'timeout');
    assert.ok(Date.now() - t0 < 3000);
    assert.ok((err.partial?.message.content ?? '').startsWith('Echo:'));
  });

  void it('keep-alive comments count as traffic: a stalled-but-pinging stream is not cut by the watchdog', async () => {
    chatFault({ stallAfterChunks: 3, stallPingMs: 50 });
    const ctrl = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ctrl.abort(), 900);
    const err = await failure(
      client({ idleTimeoutMs: 250 }).streamChat(ask('one two three four five'), { signal: ctrl.signal }),
    );
    assert.equal(err.kind, 'aborted', `cut as ${err.kind} after ${Date.now() - t0} ms`);
    assert.ok(Date.now() - t0 >= 850);
    assert.ok((err.partial?.message.content ?? '').startsWith('Echo:'));
  });

  void it('a stream longer than the idle limit, with each gap inside it, is not cut (no total deadline)', async () => {
    chatFault({ chunkDelayMs: 120, keepAlive: true });
    const r = await client({ idleTimeoutMs: 400, timeoutMs: 400 }).streamChat(ask('a b c d e f g h'));
    assert.equal(r.message.content, 'Echo: a b c d e f g h');
  });

  void it('stopping through the signal ends the stream at once with kind aborted and the partial text', async () => {
    chatFault({ chunkDelayMs: 50 });
    const ctrl = new AbortController();
    let seen = 0;
    const err = await failure(
      client().streamChat(ask('#long 200'), {
        signal: ctrl.signal,
        onEvent: (e) => {
          if (e.type === 'text' && ++seen === 3) ctrl.abort();
        },
      }),
    );
    assert.equal(err.kind, 'aborted');
    assert.ok((err.partial?.message.content ?? '').length > 0);
  });
});

void describe('finish reasons (wire-quirks "Chunks": accept any string)', () => {
  for (const reason of ['length', 'content_filter']) {
    void it(`finish_reason ${reason} is reported, not treated as an error`, async () => {
      const r = await client().streamChat(ask(`#finish ${reason}`));
      assert.equal(r.finishReason, reason);
    });
  }
});

void describe('multimodal content (spec 2.1)', () => {
  void it('image parts reach a vision model', async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const r = await client().streamChat({
      model: 'gw-vision',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image_url', image_url: { url: png } },
          ],
        },
      ],
    });
    assert.match(r.message.content ?? '', /I received 1 image/);
  });

  void it('JSON mode is sent as response_format', async () => {
    const r = await client().chat(ask('give json', { response_format: { type: 'json_object' } }));
    assert.doesNotThrow(() => JSON.parse(r.message.content ?? ''));
  });
});

// The streamed chat's one retry without stream_options is for a refusal of stream_options only: a
// 400 that names another field would fail the same way again, so it is not sent a second time.
void describe('the retry without stream_options is for a refusal of stream_options only', () => {
  // With the windowed models, for llama.cpp's overflow.
  const gw = useGateway({ contextModels: true });
  const CHAT = 'POST /v1/chat/completions';
  const TOOL = {
    type: 'function' as const,
    function: {
      name: 'read_file',
      description: 'Reads a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  };

  const client = (): GatewayClient => new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });

  void it('a 400 naming tool_choice is reported after one request, not sent again without stream_options', async () => {
    gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
    const err = await gatewayFailure(
      client().streamChat({
        model: 'gw-chat',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [TOOL, { ...TOOL, function: { ...TOOL.function, name: 'list_directory' } }],
        tool_choice: 'required',
      }),
    );
    assert.equal(err.status, 400);
    assert.equal(err.param, 'tool_choice');
    assert.equal(gw.counts()[CHAT], 1, 'one request');
  });

  void it("llama.cpp's context overflow (a 400 naming no param) is reported after one request, not sent again without stream_options", async () => {
    const err = await gatewayFailure(
      client().streamChat({ model: 'gw-window-llama', messages: [{ role: 'user', content: 'word '.repeat(20_000) }] }),
    );
    assert.equal(err.type, 'exceed_context_size_error', err.message);
    assert.ok(!err.param, 'llama.cpp names no param');
    assert.equal(gw.counts()[CHAT], 1, 'one request');
  });

  void it('a 400 naming stream_options is still answered by one request without it, which succeeds', async () => {
    gw.fault({ rejectStreamOptions: 400, times: -1 });
    const r = await client().streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello there' }] });
    assert.match(r.message.content ?? '', /hello there/);
    assert.equal(gw.counts()[CHAT], 2, 'the refused request and the one without stream_options');
    const last = gw
      .requests()
      .filter((q) => q.path === '/v1/chat/completions')
      .pop();
    assert.equal(
      (last?.body as { stream_options?: unknown } | undefined)?.stream_options,
      undefined,
      'the second request has no stream_options',
    );
  });
});
