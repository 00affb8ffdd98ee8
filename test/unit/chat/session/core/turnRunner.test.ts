import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import type { RequestDefaults } from '../../../../../src/chat/conversation/core/request';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import type { ToolExecutor } from '../../../../../src/chat/tools/core/seam';
import { runTurn, type TurnOptions } from '../../../../../src/chat/session/core/turnRunner';
import type { AssistantMessage, ChatMessage, Conversation } from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, useGateway, userConversation } from '../../../../support/helpers';

const defaults: RequestDefaults = {
  model: 'gw-chat',
  systemPrompt: '',
  params: UNSET_PARAMS,
};

const gw = useGateway();

function client(key = gw.keys.valid, maxRetries = 0): GatewayClient {
  return new GatewayClient({ baseUrl: gw.url, apiKey: key, maxRetries });
}

const conv = (text: string, model = ''): Conversation => userConversation(text, { model });

function recorder() {
  const messages: ChatMessage[] = [];
  const deltas: string[] = [];
  return {
    messages,
    deltas,
    callbacks: {
      onMessage: (m: ChatMessage) => messages.push(m),
      onDelta: (_id: string, d: { content?: string }) => {
        if (d.content) deltas.push(d.content);
      },
    },
  };
}

function opts(c: Conversation, rec: ReturnType<typeof recorder>, extra: Partial<TurnOptions> = {}): TurnOptions {
  return {
    backend: client(),
    conversation: c,
    defaults,
    maxRounds: 3,
    signal: new AbortController().signal,
    callbacks: rec.callbacks,
    ...extra,
  };
}

const lastAnswer = (c: Conversation) => c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1);

void test('an answer streams in as deltas and ends done with usage and finish reason', async () => {
  const c = conv('hello there');
  const rec = recorder();
  const out = await runTurn(opts(c, rec));
  assert.equal(out.status, 'done');
  assert.ok(rec.deltas.length >= 3, `expected several deltas, got ${rec.deltas.length}`);
  const a = lastAnswer(c);
  assert.equal(a?.content, 'Echo: hello there');
  assert.equal(rec.deltas.join(''), a?.content);
  assert.equal(a?.status, 'done');
  assert.equal(a?.finishReason, 'stop');
  assert.ok((a?.usage?.total_tokens ?? 0) > 0);
  assert.equal(rec.messages[0]?.role === 'assistant' && rec.messages[0].status, 'streaming');
});

void test('the aligned model is recorded when the response names another version than requested', async () => {
  const c = conv('hi', 'gw-latest');
  await runTurn(opts(c, recorder()));
  const a = lastAnswer(c);
  assert.equal(a?.requestedModel, 'gw-latest');
  assert.equal(a?.model, 'gw-chat-2026-11');
});

void test('Stop in the middle keeps the partial answer, marked stopped', async () => {
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 30 });
  const c = conv('#long 400');
  const ctl = new AbortController();
  const rec = recorder();
  rec.callbacks.onDelta = (_id, d) => {
    if (d.content) rec.deltas.push(d.content);
    if (rec.deltas.length === 5) ctl.abort();
  };
  const out = await runTurn(opts(c, rec, { signal: ctl.signal }));
  assert.equal(out.status, 'stopped');
  const a = lastAnswer(c);
  assert.equal(a?.status, 'stopped');
  assert.ok((a?.content.length ?? 0) > 0);
  assert.equal(a?.content, rec.deltas.join(''));
  assert.equal(a?.error, undefined);
});

void test('a mid-stream error keeps the partial text and shows the error inline', async () => {
  gw.fault({
    match: { path: '/chat/completions' },
    midStreamError: { afterChunks: 4, message: 'upstream overloaded', type: 'server_error', code: 'overloaded' },
  });
  const c = conv('#long 200');
  const out = await runTurn(opts(c, recorder()));
  assert.equal(out.status, 'error');
  const a = lastAnswer(c);
  assert.equal(a?.status, 'error');
  assert.ok((a?.content.length ?? 0) > 0, 'partial text kept');
  assert.match(`${a?.error?.title} ${a?.error?.detail}`, /overloaded/);
});

void test('a 401 becomes an inline error whose first action is Set API Key', async () => {
  const c = conv('hi');
  const out = await runTurn(opts(c, recorder(), { backend: client('sk-wrong-key-123456') }));
  assert.equal(out.status, 'error');
  assert.match(out.error?.title ?? '', /401/);
  assert.equal(out.error?.actions[0], 'setApiKey');
  assert.doesNotMatch(JSON.stringify(c), /sk-wrong-key-123456/);
});

void test('a 429 with retry-after 1 is retried once and the answer notes the retry', async () => {
  gw.fault({ match: { path: '/chat/completions' }, status: 429, retryAfter: 1 });
  const c = conv('after the limit');
  const t0 = Date.now();
  const out = await runTurn(opts(c, recorder(), { backend: client(gw.keys.valid, 2) }));
  assert.equal(out.status, 'done');
  assert.ok(Date.now() - t0 >= 900);
  const a = lastAnswer(c);
  assert.equal(a?.content, 'Echo: after the limit');
  assert.match(a?.notices?.[0] ?? '', /Retried \(attempt 1\)/);
});

void test('finish_reason length and content_filter are kept on the answer', async () => {
  const c1 = conv('#finish length');
  await runTurn(opts(c1, recorder()));
  assert.equal(lastAnswer(c1)?.finishReason, 'length');
  const c2 = conv('#finish content_filter');
  await runTurn(opts(c2, recorder()));
  assert.equal(lastAnswer(c2)?.finishReason, 'content_filter');
});

void test('reasoning streams separately from the answer', async () => {
  const c = conv('#reasoning why?');
  await runTurn(opts(c, recorder()));
  const a = lastAnswer(c);
  assert.ok((a?.reasoning?.length ?? 0) > 0);
  assert.ok((a?.content.length ?? 0) > 0);
  assert.ok(!a?.content.includes(a.reasoning ?? '\u0000'));
});

void test('with streaming off the whole answer arrives in one piece', async () => {
  const c = conv('no stream please');
  const rec = recorder();
  await runTurn(opts(c, rec, { defaults: { ...defaults, params: { ...defaults.params, stream: false } } }));
  assert.equal(lastAnswer(c)?.content, 'Echo: no stream please');
  assert.equal(rec.deltas.length, 1);
  assert.equal(gw.requests().at(-1)?.body && (gw.requests().at(-1)?.body as { stream?: boolean }).stream, false);
});

function executor(log: ToolCall[][]): ToolExecutor {
  return {
    definitions: () => [
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'read',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'list_dir', description: 'list', parameters: { type: 'object' } } },
    ],
    toolChoice: () => undefined,
    execute: (calls) => {
      log.push(calls);
      return Promise.resolve(
        calls.map((c) => ({
          role: 'tool' as const,
          tool_call_id: c.id,
          content: `contents of ${c.function.arguments}`,
        })),
      );
    },
  };
}

void test('tool calls are executed and the model is asked again until it answers in text', async () => {
  const script = JSON.stringify([
    {
      calls: [
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'list_dir', arguments: {} },
      ],
    },
    { calls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] },
  ]);
  const c = conv(`#tools ${script}`, 'gw-reasoner');
  const calls: ToolCall[][] = [];
  const out = await runTurn(opts(c, recorder(), { executor: executor(calls) }));
  assert.equal(out.status, 'done');
  assert.equal(out.rounds, 2);
  assert.deepEqual(
    calls.map((r) => r.map((x) => x.function.name)),
    [['read_file', 'list_dir'], ['read_file']],
  );
  assert.deepEqual(
    c.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant'],
  );
  assert.match(lastAnswer(c)?.content ?? '', /^Done\. Tool results: read_file=contents of/);
  const firstAnswer = c.messages[1];
  assert.ok(firstAnswer?.role === 'assistant' && firstAnswer.reasoning, 'reasoning kept on the tool-call turn');
});

void test('the tool loop stops at maxRounds with a notice, and every call is still answered', async () => {
  const turn = { calls: [{ name: 'read_file', arguments: { path: 'x' } }] };
  const c = conv(`#tools ${JSON.stringify([turn, turn, turn, turn])}`);
  const calls: ToolCall[][] = [];
  const out = await runTurn(opts(c, recorder(), { executor: executor(calls), maxRounds: 2 }));
  assert.equal(out.status, 'max-rounds');
  assert.equal(calls.length, 2);
  const a = lastAnswer(c);
  assert.match(a?.notices?.join(' ') ?? '', /Stopped after 2 rounds.*gatewayStudio\.tools\.maxRounds/);
  assert.equal(c.messages.at(-1)?.role, 'tool');
  // The conversation can go on: the gateway accepts the history (every call answered).
  c.messages.push({ id: 'u2', role: 'user', text: 'thanks', images: [], contexts: [], createdAt: 9 });
  const next = await runTurn(opts(c, recorder()));
  assert.equal(next.status, 'done');
});

void test('Stop while a tool waits for approval answers the calls as stopped and ends the turn', async () => {
  const c = conv(`#tools ${JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: 'x' } }] }])}`);
  const ctl = new AbortController();
  const waiting: ToolExecutor = {
    ...executor([]),
    execute: (_calls, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
        setTimeout(() => ctl.abort(), 20);
      }),
  };
  const out = await runTurn(opts(c, recorder(), { executor: waiting, signal: ctl.signal }));
  assert.equal(out.status, 'stopped');
  const tool = c.messages.find((m) => m.role === 'tool');
  assert.match(tool?.role === 'tool' ? tool.content : '', /stopped/);
});

void test('while an answer streams, the conversation already holds its text and reasoning so far (a reloaded panel resumes from it)', async () => {
  const c = conv('#reasoning why?');
  const seen: { status: string; content: string; reasoning: string; expected: string; expectedReasoning: string }[] =
    [];
  let content = '';
  let reasoning = '';
  const rec = recorder();
  rec.callbacks.onDelta = (_id, d: { content?: string; reasoning?: string }) => {
    content += d.content ?? '';
    reasoning += d.reasoning ?? '';
    const stored = lastAnswer(c);
    seen.push({
      status: stored?.status ?? '',
      content: stored?.content ?? '',
      reasoning: stored?.reasoning ?? '',
      expected: content,
      expectedReasoning: reasoning,
    });
  };
  const out = await runTurn(opts(c, rec));
  assert.equal(out.status, 'done');
  assert.ok(seen.length >= 3, `expected several deltas, got ${seen.length}`);
  assert.ok(
    seen.some((s) => s.expectedReasoning.length > 0 && s.expected === ''),
    'reasoning arrives before the answer',
  );
  for (const s of seen) {
    assert.equal(s.status, 'streaming');
    assert.equal(s.content, s.expected);
    assert.equal(s.reasoning, s.expectedReasoning);
  }
});
