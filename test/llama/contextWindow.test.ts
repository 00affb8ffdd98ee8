import assert from 'node:assert/strict';
import { after, afterEach, test } from 'node:test';
import type { ChatRequest } from '../../src/api/chat/wire';
import { readModelLimits, TokenEstimator } from '../../src/chat/context/core/contextWindow';
import { ConversationStore } from '../../src/chat/history/core/store';
import type { ContextMeter, HostMessage } from '../../src/shared/protocol';
import { openSession, question, SETTINGS } from '../support/sessionHarness';
import { asGateway, llamaClient, recordingProxy, useLlama, weatherTools, type Exchange } from './helpers';

/**
 * The context window against llama.cpp's real llama-server with a 2,048-token slot: the window
 * read from its `/v1/models`, the meter following its own `usage`, compaction before the window
 * is outgrown, and recovery from its `exceed_context_size_error`. Every request goes through a
 * recording proxy, so each test also checks what the server counted, and the file prints how far
 * the product's estimates were from those counts.
 */

const llama = useLlama({ ctx: 2048, slots: 1, alias: SETTINGS.chatModel });

/** The sessions a test opened and has not closed (closed after it, even when it failed). */
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** Every session's chat requests, for the estimate-versus-server figures printed at the end. */
const seen: Exchange[][] = [];

const ended = (requestId: string) => (m: HostMessage) =>
  (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId;
const meters = (received: HostMessage[]): ContextMeter[] =>
  received.flatMap((m) => (m.type === 'context/meter' ? [m.meter] : []));

// Words of the model's vocabulary (makeModel.py), so the server counts about a token per word.
const WORDS =
  'the weather in paris today is warm and the sun is out so people work in the city and read files with tools'.split(
    ' ',
  );
/** About `n` words of prose, different for each `seed`. */
function prose(n: number, seed: number): string {
  return Array.from({ length: n }, (_, i) => WORDS[(i * 7 + seed * 3) % WORDS.length]).join(' ');
}

async function session(settings: Partial<typeof SETTINGS> = {}, toolReport?: string) {
  const proxy = await recordingProxy(llama);
  const h = openSession(asGateway(proxy), undefined, { timeoutMs: 60_000, settings });
  if (toolReport !== undefined) h.session.setToolExecutor(weatherTools(toolReport));
  const turn = async (id: string, text: string) => {
    void h.session.send(id, question(text));
    await h.until(() => h.received.some(ended(id)), `the answer to ${id}`);
    return h.received.find(ended(id));
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    h.session.dispose();
    seen.push(proxy.exchanges.filter((x) => x.path.endsWith('/chat/completions')));
    await proxy.close();
  };
  // Also when an assertion failed first: an open proxy would keep the test process alive.
  open.push(close);
  return { h, proxy, turn, close };
}

void test("the window is read from llama-server's /v1/models (meta.n_ctx), and the meter shows it", async () => {
  const records = await llamaClient(llama).listModels();
  const limits = readModelLimits(records.find((r) => r.id === llama.model));
  assert.deepEqual({ window: limits.window, field: limits.field }, { window: 2048, field: 'meta.n_ctx' });

  const s = await session();
  assert.equal((await s.turn('r1', 'hello there'))?.type, 'chat/done');
  const meter = meters(s.h.received).at(-1);
  assert.equal(meter?.window, 2048, JSON.stringify(meter));
  assert.equal(meter?.source, 'model');
  assert.equal(meter?.field, 'meta.n_ctx');
  await s.close();
});

void test("the meter follows the server's own usage: its last prompt count is llama-server's prompt_tokens", async () => {
  // With a tool: the first question gets a tool round, so tool definitions, a call and its
  // result are counted too.
  const s = await session({}, 'sunny, 21 degrees');
  assert.equal((await s.turn('r1', prose(120, 1)))?.type, 'chat/done');
  assert.equal((await s.turn('r2', prose(80, 2)))?.type, 'chat/done');
  const answered = s.proxy.exchanges.filter((x) => x.path.endsWith('/chat/completions') && x.promptTokens);
  const server = answered.at(-1)?.promptTokens;
  const meter = meters(s.h.received).at(-1);
  assert.ok(server && server > 100, `the server counted the second request: ${server}`);
  assert.equal(meter?.lastPromptTokens, server, 'the meter shows what the server counted');
  // Calibrated on that count, the estimate of the same request is the server's count (each part
  // of the breakdown is rounded up, so up to one token more per part).
  const est = new TokenEstimator();
  const last = answered.at(-1)?.request as ChatRequest;
  est.calibrate(last, server);
  const again = est.count(last);
  assert.ok(again >= server && again <= server + 4, `${again} for the server's ${server}`);
  assert.notEqual(meter?.charsPerToken, 4, 'the characters-per-token figure was calibrated');
  await s.close();
});

void test('a conversation that outgrows the 2,048-token window compacts and keeps answering, with no error and nothing lost', async () => {
  const s = await session();
  const turns = 7;
  for (let i = 1; i <= turns; i++) {
    const end = await s.turn(`r${i}`, `${prose(330, i)} question ${i}`);
    assert.equal(end?.type, 'chat/done', `turn ${i}: ${JSON.stringify(end)} ${s.h.logs.join(' | ')}`);
  }
  const chats = s.proxy.exchanges.filter((x) => x.path.endsWith('/chat/completions'));
  assert.deepEqual(
    chats.filter((x) => x.status !== 200).map((x) => `${x.status} ${x.errorType}`),
    [],
    'the server never refused a request',
  );
  assert.ok(
    chats.every((x) => (x.promptTokens ?? 0) <= llama.nCtx),
    'every prompt fitted the window',
  );
  assert.ok(
    s.h.received.some((m) => m.type === 'context/compacted'),
    'the conversation was compacted on the way',
  );
  const saved = new ConversationStore(s.h.storage).load(s.h.session.conversationId);
  assert.ok(saved?.compaction, 'the stored conversation records its summary');
  const users = saved?.messages.filter((m) => m.role === 'user').map((m) => (m.role === 'user' ? m.text : ''));
  assert.equal(users?.length, turns, 'the stored conversation keeps every message');
  assert.ok(users?.[0]?.endsWith('question 1'), 'including the first, summarised away on the wire');
  await s.close();
});

void test('a tool result larger than the whole window is cut to fit, and the model answers after it with no error', async () => {
  const s = await session({}, prose(3000, 9));
  const end = await s.turn('r1', 'what is the weather in paris?');
  assert.equal(end?.type, 'chat/done', `${JSON.stringify(end)} ${s.h.logs.join(' | ')}`);
  const chats = s.proxy.exchanges.filter((x) => x.path.endsWith('/chat/completions'));
  assert.deepEqual(
    chats.map((x) => x.status),
    [200, 200],
    'the call, then the answer after the result: nothing refused',
  );
  assert.ok((chats[1]?.promptTokens ?? 0) <= llama.nCtx);
  const sent = JSON.stringify((chats[1]?.request as ChatRequest).messages.find((m) => m.role === 'tool')?.content);
  assert.ok(sent.length < prose(3000, 9).length, 'the result went out shortened');
  const saved = new ConversationStore(s.h.storage).load(s.h.session.conversationId);
  assert.ok(JSON.stringify(saved).includes(prose(3000, 9)), 'the stored conversation keeps the whole result');
  await s.close();
});

void test('a request forced past the window (a wrong window override) gets exceed_context_size_error, recognised, and recovers by itself', async () => {
  // The user declared a window 16 times too large, so nothing is compacted before sending.
  const s = await session({ modelOverrides: { [SETTINGS.chatModel]: { contextWindow: 32_768 } } });
  for (let i = 1; i <= 6; i++) {
    const end = await s.turn(`r${i}`, `${prose(330, i)} question ${i}`);
    assert.equal(end?.type, 'chat/done', `turn ${i}: ${JSON.stringify(end)} ${s.h.logs.join(' | ')}`);
  }
  const chats = s.proxy.exchanges.filter((x) => x.path.endsWith('/chat/completions'));
  const refused = chats.findIndex((x) => x.status === 400);
  assert.ok(refused >= 0, `the server refused one request: ${chats.map((x) => x.status).join(' ')}`);
  assert.equal(chats[refused]?.errorType, 'exceed_context_size_error');
  assert.equal(
    chats[refused + 1] && (chats[refused + 1]?.request as { stream?: boolean }).stream,
    false,
    'then the summary',
  );
  const trace = chats.map(
    (x) =>
      `${x.status}${(x.request as { stream?: boolean }).stream ? '' : ' (summary)'} ${x.promptTokens ?? x.errorType}`,
  );
  assert.equal(
    chats.filter((x) => x.status === 400).length,
    1,
    `only once, the window was learnt from it: ${trace.join(', ')}`,
  );
  assert.ok(
    chats.slice(refused + 1).some((x) => x.status === 200 && x.request && (x.request as { stream?: boolean }).stream),
    'the turn was retried after compacting and answered',
  );
  assert.ok(
    s.h.logs.some((l) => /context overflow \(llama\.cpp\): window 2048/.test(l)),
    `recognised as llama.cpp's overflow with its window: ${s.h.logs.join(' | ')}`,
  );
  const meter = meters(s.h.received).at(-1);
  assert.deepEqual({ window: meter?.window, source: meter?.source }, { window: 2048, source: 'error' });
  await s.close();
});

after(() => {
  // How far the product's estimate was from llama-server's count, request by request: the raw
  // characters-per-token estimate, and the one calibrated on the previous answer's usage in the
  // same session (what the session decides with).
  const sessions = seen.map((xs) => xs.filter((x) => x.promptTokens !== undefined && x.request));
  const n = sessions.reduce((k, xs) => k + xs.length, 0);
  if (n === 0) return;
  let rawErr = 0;
  let calErr = 0;
  let calN = 0;
  const pct = (e: number, s: number) => `${(((e - s) / s) * 100).toFixed(1)}%`;
  console.log(`# estimate versus llama-server's usage.prompt_tokens, ${n} requests in ${sessions.length} sessions:`);
  for (const [i, xs] of sessions.entries()) {
    const est = new TokenEstimator();
    let prev: Exchange | undefined;
    for (const x of xs) {
      const req = x.request as ChatRequest;
      const server = x.promptTokens ?? 0;
      const raw = new TokenEstimator().count(req);
      rawErr += Math.abs(raw - server) / server;
      let cal = '';
      if (prev) {
        est.calibrate(prev.request as ChatRequest, prev.promptTokens ?? 0);
        const c = est.count(req);
        calErr += Math.abs(c - server) / server;
        calN++;
        cal = `, calibrated ${c} (${pct(c, server)})`;
      }
      const kind = req.stream ? (req.tools ? 'chat+tools' : 'chat') : 'summary';
      console.log(`#   session ${i + 1} ${kind}: server ${server}, raw ${raw} (${pct(raw, server)})${cal}`);
      prev = x;
    }
  }
  console.log(
    `# mean absolute error: raw ${((rawErr / n) * 100).toFixed(1)}%, calibrated on the previous answer ${calN ? ((calErr / calN) * 100).toFixed(1) : '-'}%`,
  );
});
