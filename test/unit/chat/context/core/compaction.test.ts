// The session against the local gateway's small windows: each request fitted before it is sent
// (old tool results elided, then earlier turns summarised, max_tokens clamped), overflow learnt
// from and retried once, the fixed parts too large, the meter, the manual action. Real HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolDefinition } from '../../../../../src/api/chat/wire';
import { countPromptTokens } from '../../../../gateway/context';
import { ChatSession } from '../../../../../src/chat/session/core/session';
import { elideToFit, fitToWindow, KEEP_RECENT_TOOL_RESULTS } from '../../../../../src/chat/context/core/compaction';
import { TokenEstimator, resolveModelLimits } from '../../../../../src/chat/context/core/contextWindow';
import type { ToolExecutor } from '../../../../../src/chat/tools/core/seam';
import type { ChatRequest } from '../../../../../src/api/chat/wire';
import type { Conversation, ContextMeter, HostMessage } from '../../../../../src/shared/protocol';
import { conversationToMarkdown } from '../../../../../src/chat/history/core/export';
import { useGateway } from '../../../../support/helpers';
import { SETTINGS, openSession, question } from '../../../../support/sessionHarness';
import { ConversationStore } from '../../../../../src/chat/history/core/store';

const gw = useGateway({ contextModels: true });

const READ: ToolDefinition = {
  type: 'function',
  function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: {} } },
};
const WRITE: ToolDefinition = {
  type: 'function',
  function: { name: 'write_file', description: 'Writes a file.', parameters: { type: 'object', properties: {} } },
};

/** A tools side whose read returns `chars` characters (numbered, so each result is its own). */
function reader(chars: number, extraDefs: ToolDefinition[] = []): ToolExecutor & { runs: number } {
  const ex = {
    runs: 0,
    definitions: () => [READ, WRITE, ...extraDefs],
    readOnlyDefinitions: () => [READ],
    toolChoice: () => undefined,
    execute: async (calls: { id: string }[]) => {
      return calls.map((c) => {
        ex.runs++;
        const head = `result ${ex.runs}: `;
        return { role: 'tool' as const, tool_call_id: c.id, content: head + 'x'.repeat(chars - head.length) };
      });
    },
  };
  return ex;
}

const TURNS = 20;
const READ_THEN_ANSWER = `#tools ${JSON.stringify([{ calls: [{ name: 'read_file', arguments: {} }] }, { text: 'Read it.' }])}`;

function chatBodies(): ChatRequest[] {
  return gw
    .requests()
    .filter((r) => r.route === '/v1/chat/completions')
    .map((r) => r.body as ChatRequest);
}

function meters(received: HostMessage[]): ContextMeter[] {
  return received.flatMap((m) => (m.type === 'context/meter' ? [m.meter] : []));
}

async function turn(s: ReturnType<typeof openSession>, text: string, id: string): Promise<void> {
  await s.session.send(id, question(text));
  await s.until(
    () => s.received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === id),
    id,
  );
}

void test('a long tool session in an 8k window compacts and keeps answering, the stored conversation keeps everything', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-openai' } });
  s.session.setToolExecutor(reader(6000));
  // Each question carries ~200 tokens of its own, so eliding old results alone cannot keep up.
  for (let i = 0; i < TURNS; i++) await turn(s, `Step ${i}: ${'context '.repeat(100)} ${READ_THEN_ANSWER}`, `r${i}`);
  const errors = s.received.filter((m) => m.type === 'chat/error');
  assert.deepEqual(errors, [], 'no turn failed');
  // The gateway refuses anything past 8192 by its own count: none was refused, and each fitted.
  for (const b of chatBodies())
    assert.ok(countPromptTokens(b.messages as never, b.tools) + (b.max_tokens ?? 0) <= 8192);
  const c = s.session.shown;
  assert.ok(c.compaction, 'earlier turns were summarised');
  assert.ok(s.received.some((m) => m.type === 'context/compacted'));
  // Nothing lost: every question, every tool result of 6000 characters, every answer.
  const stored = new ConversationStore(s.storage).load(c.id)!;
  assert.equal(stored.messages.filter((m) => m.role === 'user').length, TURNS);
  assert.equal(stored.messages.filter((m) => m.role === 'assistant' && m.status === 'done').length, 2 * TURNS);
  const results = stored.messages.filter((m) => m.role === 'tool');
  assert.equal(results.length, TURNS);
  for (const r of results) assert.equal(r.content.length, 6000);
  assert.ok(stored.compaction);
  // Elided results were in the requests as notes, never as half a result.
  const sent = chatBodies().flatMap((b) => b.messages.filter((m) => m.role === 'tool').map((m) => m.content as string));
  assert.ok(sent.some((t) => t.startsWith('[elided]')));
  assert.ok(sent.every((t) => t.startsWith('[elided]') || t.length === 6000));
});

function toolConversation(results: number, chars: number): Conversation {
  const messages: Conversation['messages'] = [];
  let n = 0;
  const t = () => ++n;
  for (let i = 0; i < results; i++) {
    messages.push({ id: `u${i}`, role: 'user', text: `question ${i}`, images: [], contexts: [], createdAt: t() });
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      content: '',
      status: 'done',
      requestedModel: 'm',
      createdAt: t(),
      toolCalls: [{ id: `c${i}`, type: 'function', function: { name: 'read_file', arguments: '{}' } }],
    });
    messages.push({
      id: `t${i}`,
      role: 'tool',
      toolCallId: `c${i}`,
      name: 'read_file',
      content: `${i}`.repeat(chars),
      createdAt: t(),
    });
  }
  return { id: 'c1', title: '', createdAt: 0, updatedAt: 0, model: 'm', params: {}, messages };
}

void test('old tool results are elided oldest first, the two most recent never', async () => {
  const conv = toolConversation(6, 4000);
  const { buildChatRequest } = await import('../../../../../src/chat/conversation/core/request');
  const req = buildChatRequest(conv, { model: 'm', systemPrompt: '', params: SETTINGS.params });
  const est = new TokenEstimator();
  const n = elideToFit(req, est, est.count(req) - 2500, KEEP_RECENT_TOOL_RESULTS);
  const tools = req.messages.filter((m) => m.role === 'tool').map((m) => m.content as string);
  assert.equal(n, 3);
  assert.deepEqual(
    tools.map((x) => x.startsWith('[elided]')),
    [true, true, true, false, false, false],
  );
  // Even with no budget at all, the two latest stay whole.
  elideToFit(req, est, 0, KEEP_RECENT_TOOL_RESULTS);
  const after = req.messages.filter((m) => m.role === 'tool').map((m) => m.content as string);
  assert.deepEqual(after.slice(-2), ['4'.repeat(4000), '5'.repeat(4000)]);
  assert.match(after[0]!, /read_file \(4000 characters\).*again/);
});

void test('the latest question and its tool calls with their results are never summarised or split', async () => {
  const conv = toolConversation(5, 3000);
  let summarised: ChatRequest | undefined;
  const fitted = await fitToWindow({
    conversation: conv,
    defaults: { model: 'm', systemPrompt: 'Be brief.', params: SETTINGS.params },
    build: {},
    limits: resolveModelLimits({ override: { contextWindow: 2000 } }),
    estimator: new TokenEstimator(),
    signal: new AbortController().signal,
    now: () => 1,
    summarise: async (req) => {
      summarised = req;
      return 'They read four files.';
    },
  });
  assert.ok(summarised);
  assert.equal(conv.compaction?.throughId, 't3');
  assert.equal(conv.messages.length, 15, 'the stored messages are all there');
  const roles = fitted.req.messages.map((m) => m.role);
  assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool']);
  assert.match(fitted.req.messages[0]!.content as string, /Be brief\.[\s\S]*They read four files\./);
  assert.equal(fitted.req.messages[1]!.content, 'question 4');
  assert.equal(fitted.req.messages[3]!.content, '4'.repeat(3000));
  assert.ok(!JSON.stringify(summarised.messages).includes('question 4'), 'the latest question is not in the summary');
});

void test('a failed summary says so and leaves the conversation as it was', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-llama' } });
  s.session.setToolExecutor(reader(5000));
  await turn(s, READ_THEN_ANSWER, 'r1');
  await turn(s, READ_THEN_ANSWER, 'r2');
  const before = structuredClone(s.session.shown.messages);
  // The next request that needs compaction: its summary request fails.
  gw.fault({ status: 500, times: 1 });
  await turn(s, `${'long question '.repeat(600)}`, 'r3');
  const err = s.received.find((m) => m.type === 'chat/error' && m.requestId === 'r3');
  assert.ok(err && err.type === 'chat/error');
  assert.match(err.error.title, /Compaction failed/);
  assert.match(err.error.detail, /left as it was/);
  assert.equal(s.session.shown.compaction, undefined);
  assert.deepEqual(s.session.shown.messages.slice(0, before.length), before);
});

void test('a window the model does not list is learnt from the overflow error, compacted and retried once', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-unlisted' } });
  s.session.setToolExecutor(reader(9000));
  await turn(s, READ_THEN_ANSWER, 'r1');
  gw.resetCounts();
  await turn(s, READ_THEN_ANSWER, 'r2');
  assert.deepEqual(
    s.received.filter((m) => m.type === 'chat/error'),
    [],
  );
  const statuses = chatBodies().length;
  assert.ok(statuses >= 3, `refused, then (summary and) retried: ${statuses} requests`);
  const last = meters(s.received).at(-1)!;
  assert.equal(last.window, 4096);
  assert.equal(last.source, 'error');
  assert.ok(s.logs.some((l) => /context overflow \(llama\.cpp\): window 4096/.test(l)));
});

void test('a server that keeps refusing is retried once, then its numbers and the actions are shown', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-chat' } });
  gw.fault({
    status: 400,
    times: -1,
    body: {
      error: {
        message: "This model's maximum context length is 100000 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      },
    },
  });
  await turn(s, 'hello', 'r1');
  assert.equal(chatBodies().length, 2, 'sent, refused, sent once more');
  const err = s.received.find((m) => m.type === 'chat/error');
  assert.ok(err && err.type === 'chat/error');
  assert.match(err.error.title, /does not fit/);
  assert.match(err.error.detail, /100000 tokens/);
  assert.match(err.error.detail, /retried once/);
  assert.deepEqual(err.error.actions, ['compact', 'toolsOff', 'toolsReadOnly', 'showLog']);
});

void test('tools and system prompt past the window: said with figures; without tools it answers, remembered per model', async () => {
  gw.setContextWindow({ model: 'gw-window-llama', window: 700 });
  try {
    const big: ToolDefinition = {
      type: 'function',
      function: { name: 'huge', description: 'd'.repeat(4000), parameters: { type: 'object', properties: {} } },
    };
    const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-llama' } });
    s.session.setToolExecutor(reader(100, [big]));
    await turn(s, 'hello', 'r1');
    const err = s.received.find((m) => m.type === 'chat/error');
    assert.ok(err && err.type === 'chat/error');
    assert.match(err.error.title, /tools and the system prompt alone/);
    assert.match(err.error.detail, /tool definitions \(\d+ tokens\).*window of 700 tokens/);
    assert.deepEqual(err.error.actions.slice(0, 2), ['toolsOff', 'toolsReadOnly']);
    assert.equal(chatBodies().length, 0, 'nothing was sent');
    assert.equal(meters(s.received).at(-1)?.fixedTooLarge, true);

    await s.session.contextAction('toolsReadOnly');
    await s.session.regenerate('r2');
    await s.until(() => s.received.some((m) => m.type === 'chat/done' && m.requestId === 'r2'), 'r2');
    assert.deepEqual(
      chatBodies()
        .at(-1)!
        .tools?.map((t) => t.function.name),
      ['read_file'],
    );
    // Another window over the same workspace state remembers the choice for this model.
    const again = new ChatSession({
      store: new ConversationStore(s.storage),
      backend: async () => {
        throw new Error('not used');
      },
      settings: () => ({ ...SETTINGS, chatModel: 'gw-window-llama' }),
      sink: { broadcast: () => undefined, delta: () => undefined },
      log: { warn: () => undefined, error: () => undefined },
      contextStorage: s.storage,
    });
    assert.equal(again.context.toolMode('gw-window-llama'), 'readOnly');
    assert.equal(again.context.toolMode('gw-chat'), 'all');
  } finally {
    gw.setContextWindow({ model: 'gw-window-llama', window: 4096 });
  }
});

void test('max_tokens past the room left is clamped so prompt plus answer fits', async () => {
  const s = openSession(gw, undefined, {
    settings: { chatModel: 'gw-window-vllm', params: { ...SETTINGS.params, max_tokens: 8000 } },
  });
  await turn(s, 'word '.repeat(2000), 'r1');
  assert.deepEqual(
    s.received.filter((m) => m.type === 'chat/error'),
    [],
  );
  const b = chatBodies().at(-1)!;
  assert.ok(b.max_tokens! < 8000);
  assert.ok(countPromptTokens(b.messages as never, b.tools) + b.max_tokens! <= 8192);
});

void test('the meter states the window, its source and the parts, and follows the server count', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-openai', systemPrompt: 'S'.repeat(400) } });
  s.session.setToolExecutor(reader(2000));
  await turn(s, READ_THEN_ANSWER, 'r1');
  const m = meters(s.received).at(-1)!;
  assert.equal(m.window, 8192);
  assert.equal(m.source, 'model');
  assert.equal(m.field, 'context_window');
  assert.ok(m.system >= 100 && m.tools > 0 && m.history > 500);
  assert.equal(m.reserve, 2048);
  // The last request's own count, as the gateway computed it and reported in usage.
  const last = chatBodies().at(-1)!;
  assert.equal(m.lastPromptTokens, countPromptTokens(last.messages as never, last.tools));
});

void test('Compact conversation summarises the turns before the latest question; export and history keep the originals', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-openai' } });
  await turn(s, 'first', 'r1');
  await turn(s, 'second', 'r2');
  await turn(s, 'third', 'r3');
  await s.session.compact();
  const c = s.session.shown;
  assert.equal(c.compaction?.messageCount, 4);
  assert.equal(c.compaction?.throughId, c.messages[3]!.id);
  assert.match(c.compaction!.summary, /^Summary of/);
  assert.ok(s.received.some((m) => m.type === 'chat/notice' && /summarised/.test(m.text)));
  assert.equal(new ConversationStore(s.storage).load(c.id)!.messages.length, 6);
  // The export has the original messages, not the summary.
  const md = conversationToMarkdown(c);
  for (const q of ['first', 'Echo: first', 'second', 'Echo: second', 'third']) assert.ok(md.includes(q), q);
  assert.ok(!md.includes('Summary of'));
  // Nothing left to compact: says so.
  await s.session.compact();
  assert.ok(s.received.some((m) => m.type === 'chat/notice' && /Nothing to compact/.test(m.text)));
  // The next request sends the summary instead of the first four messages.
  await turn(s, 'fourth', 'r4');
  const sent = chatBodies().at(-1)!.messages;
  assert.equal(sent[0]!.role, 'system');
  assert.deepEqual(
    sent.slice(1).map((x) => x.content),
    ['third', 'Echo: third', 'fourth'],
  );
});

void test('a failed manual compaction says so and changes nothing', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-openai' } });
  await turn(s, 'first', 'r1');
  await turn(s, 'second', 'r2');
  gw.fault({ status: 500, times: 1 });
  await s.session.compact();
  assert.equal(s.session.shown.compaction, undefined);
  assert.ok(
    s.received.some((m) => m.type === 'chat/notice' && m.level === 'error' && /Compaction failed/.test(m.text)),
  );
});

void test('a summary longer than its room is cut to fit and says so; the conversation goes on', async () => {
  const s = openSession(gw, undefined, { settings: { chatModel: 'gw-window-llama' } });
  s.session.setToolExecutor(reader(5000));
  await turn(s, READ_THEN_ANSWER, 'r1');
  await turn(s, READ_THEN_ANSWER, 'r2');
  // The model answers the summary request with 60,000 characters whatever max_tokens said.
  gw.fault({ verboseSummary: 60_000 });
  await turn(s, `${'long question '.repeat(600)}`, 'r3');
  assert.deepEqual(
    s.received.filter((m) => m.type === 'chat/error'),
    [],
  );
  const summary = s.session.shown.compaction?.summary ?? '';
  assert.match(summary, /^Verbose summary: the user asked/);
  assert.ok(summary.endsWith('[summary shortened to fit the context window]'), summary.slice(-80));
  assert.ok(summary.length < 60_000 / 4, `cut to its room: ${summary.length} characters`);
  // The next turn is still answered, its request within the gateway's own count of the window.
  gw.resetCounts();
  await turn(s, 'And now?', 'r4');
  assert.ok(s.received.some((m) => m.type === 'chat/done' && m.requestId === 'r4'));
  for (const b of chatBodies()) {
    const window = 4096;
    assert.ok(countPromptTokens(b.messages as never, b.tools) + (b.max_tokens ?? 0) <= window);
  }
});
