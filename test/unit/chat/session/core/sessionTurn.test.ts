// runSessionTurn on its own, over a host built here (no ChatSession): the question is stored as the
// request goes out, the answer streams and is stored at its end, a failure mid-answer keeps the
// text seen, Stop ends the answer as stopped, a client that cannot be built shows the error. Real HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import { RequestSlot } from '../../../../../src/chat/session/core/requestSlot';
import { SessionContext } from '../../../../../src/chat/session/core/sessionContext';
import type { SessionBackend, SessionDeps } from '../../../../../src/chat/session/core/sessionDeps';
import { runSessionTurn, type TurnHost } from '../../../../../src/chat/session/core/sessionTurn';
import type { AssistantMessage, Conversation, HostMessage } from '../../../../../src/shared/protocol';
import { useGateway, userConversation } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { SETTINGS } from '../../../../support/sessionHarness';

const gw = useGateway();

interface Turn {
  host: TurnHost;
  received: HostMessage[];
  /** Each save, as the conversation was when it was asked for. */
  saves: Conversation[];
  /** What each save promised: no message before this index changed since the one before. */
  promises: (number | undefined)[];
  store: ConversationStore;
}

function turnHost(
  backend: () => Promise<SessionBackend> = () =>
    Promise.resolve(new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 })),
  storage = new MemoryStorage(),
): Turn {
  const received: HostMessage[] = [];
  const saves: Conversation[] = [];
  const promises: (number | undefined)[] = [];
  const store = new ConversationStore(storage);
  const sink: SessionDeps['sink'] = {
    broadcast: (m) => received.push(structuredClone(m)),
    delta: (requestId, messageId, d) => received.push({ type: 'chat/delta', requestId, messageId, ...d }),
  };
  const deps: SessionDeps = {
    store,
    backend,
    settings: () => SETTINGS,
    sink,
    log: { warn: () => undefined, error: () => undefined },
    contextStorage: storage,
  };
  const slot = new RequestSlot(sink);
  const now = () => Date.now();
  let shown: Conversation | undefined;
  const save = async (c: Conversation, dirtyFrom?: number) => {
    saves.push(structuredClone(c));
    promises.push(dirtyFrom);
    await store.save(c, dirtyFrom === undefined ? {} : { dirtyFrom });
  };
  const context = new SessionContext({ deps, slot, now, shown: () => shown!, executor: () => undefined, save });
  const host: TurnHost = {
    deps,
    slot,
    context,
    now,
    executor: () => undefined,
    isShown: (c) => {
      shown ??= c;
      return c === shown;
    },
    save,
    historyMessage: () => ({ type: 'history/list', entries: [], activeId: '' }),
  };
  return { host, received, saves, promises, store };
}

function answerOf(c: Conversation): AssistantMessage {
  const a = c.messages.at(-1)!;
  assert.equal(a.role, 'assistant');
  return a as AssistantMessage;
}

void test('the question is stored as the request goes out; the answer streams and is stored done at the end', async () => {
  const t = turnHost();
  const c = userConversation('hello there', { model: 'gw-chat' });
  await runSessionTurn(t.host, c, 'r1');
  // The first save holds the question alone: a window dying mid-answer comes back with it.
  assert.deepEqual(
    t.saves[0]!.messages.map((m) => m.role),
    ['user'],
  );
  assert.equal(answerOf(c).content, 'Echo: hello there');
  assert.equal(answerOf(c).status, 'done');
  const stored = t.store.load(c.id)!;
  assert.equal(answerOf(stored).content, 'Echo: hello there');
  assert.equal(answerOf(stored).status, 'done');
  assert.equal(t.received[0]!.type, 'chat/busy');
  const deltas = t.received.filter((m) => m.type === 'chat/delta');
  assert.ok(deltas.length >= 2, `streamed in pieces: ${deltas.length}`);
  const done = t.received.find((m) => m.type === 'chat/done');
  assert.ok(done && done.type === 'chat/done' && done.requestId === 'r1');
  assert.equal(done.message?.content, 'Echo: hello there');
  assert.equal(t.host.slot.busy, false, 'the slot is free again');
  assert.ok(
    t.received.some((m) => m.type === 'context/meter'),
    'the meter follows the turn',
  );
});

void test('a turn in a long conversation promises only its own messages changed: its saves write the tail, never the parts before its question', async () => {
  const written: string[] = [];
  const storage = new (class extends MemoryStorage {
    override update(key: string, value: unknown): Promise<void> {
      if (value !== undefined && key.startsWith('gatewayStudio.chat.part.')) written.push(key);
      return super.update(key, value);
    }
  })();
  const stored = userConversation('the first question', { model: 'gw-chat' });
  for (let i = 0; i < 60; i++)
    stored.messages.push(
      i % 2
        ? { id: `u${i}`, role: 'user', text: `question ${i}`, images: [], contexts: [], createdAt: i }
        : {
            id: `a${i}`,
            role: 'assistant',
            content: `answer ${i}`,
            status: 'done',
            requestedModel: 'gw-chat',
            createdAt: i,
          },
    );
  await new ConversationStore(storage).save(stored);
  const before = new Set(written);
  written.length = 0;
  // As the session has it: read from the store (which then knows the parts it read).
  const t = turnHost(undefined, storage);
  const c = t.store.load(stored.id)!;
  const own = c.messages.length - 1;
  await runSessionTurn(t.host, c, 'r1');
  assert.equal(answerOf(c).status, 'done');
  assert.ok(t.promises.length >= 2, `saves: ${t.promises.length}`);
  assert.deepEqual(
    new Set(t.promises),
    new Set([own]),
    'every save of the turn promises the messages before its question',
  );
  const head = storage.get<{ parts: { key: string }[] }>(`gatewayStudio.chat.conversation.${c.id}`)!;
  assert.deepEqual(
    head.parts.slice(0, 1).map((p) => before.has(p.key)),
    [true],
    'the part before the question is the one written before the turn',
  );
  assert.ok(written.length >= 1 && written.every((k) => !before.has(k)), `written: ${written.join(', ')}`);
  assert.deepEqual(new ConversationStore(storage).load(c.id)?.messages, c.messages, 'and the store holds it all');
});

void test('an error mid-answer ends the turn as error with the partial text kept and stored', async () => {
  const t = turnHost();
  gw.fault({ midStreamError: { afterChunks: 3, message: 'upstream went away', type: 'server_error' } });
  const c = userConversation('one two three four five six seven eight', { model: 'gw-chat' });
  await runSessionTurn(t.host, c, 'r1');
  const a = answerOf(c);
  assert.equal(a.status, 'error');
  assert.ok(a.content.length > 0, 'some text had come');
  assert.ok('Echo: one two three four five six seven eight'.startsWith(a.content), a.content);
  assert.notEqual(a.content, 'Echo: one two three four five six seven eight');
  assert.match(a.error?.detail ?? '', /upstream went away/);
  const stored = answerOf(t.store.load(c.id)!);
  assert.equal(stored.status, 'error');
  assert.equal(stored.content, a.content);
  const err = t.received.find((m) => m.type === 'chat/error');
  assert.ok(err && err.type === 'chat/error' && err.requestId === 'r1');
  assert.equal(err.message?.content, a.content);
});

void test('Stop ends the answer as stopped with the text seen so far, and frees the slot', async () => {
  const t = turnHost();
  gw.fault({ chunkDelayMs: 30 });
  const c = userConversation('#long 400', { model: 'gw-chat' });
  const running = runSessionTurn(t.host, c, 'r1');
  const start = Date.now();
  while (!t.received.some((m) => m.type === 'chat/delta')) {
    assert.ok(Date.now() - start < 10_000, 'no delta came');
    await new Promise((r) => setTimeout(r, 10));
  }
  t.host.slot.cancel('r1');
  await running;
  const a = answerOf(c);
  assert.equal(a.status, 'stopped');
  assert.ok(a.content.length > 0);
  assert.ok(a.content.split(/\s+/).length < 400, 'cut short');
  assert.equal(answerOf(t.store.load(c.id)!).status, 'stopped');
  assert.ok(t.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'));
  assert.ok(!t.received.some((m) => m.type === 'chat/error'));
  assert.equal(t.host.slot.busy, false);
});

void test('a client that cannot be built ends the turn with an error answer naming why', async () => {
  const t = turnHost(() => Promise.reject(new Error('no base URL is set')));
  const c = userConversation('hello', { model: 'gw-chat' });
  await runSessionTurn(t.host, c, 'r1');
  const a = answerOf(c);
  assert.equal(a.status, 'error');
  assert.equal(a.content, '');
  assert.equal(a.requestedModel, 'gw-chat');
  assert.match(a.error?.detail ?? '', /no base URL is set/);
  assert.equal(answerOf(t.store.load(c.id)!).status, 'error');
  const err = t.received.find((m) => m.type === 'chat/error');
  assert.ok(err && err.type === 'chat/error');
  assert.equal(gw.requests().filter((r) => r.route === '/v1/chat/completions').length, 0, 'nothing was sent');
});
