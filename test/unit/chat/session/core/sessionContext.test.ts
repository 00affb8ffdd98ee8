// SessionContext on its own, over a host built here (no ChatSession): the meter of the shown
// conversation and the system prompt it counts, the tool mode set from the error buttons and
// remembered per model, and Compact conversation against the local gateway (summarised and saved,
// nothing to compact, refused while busy, a failed summary leaving the conversation as it was).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { ContextGuard } from '../../../../../src/chat/context/core/contextGuard';
import { ConversationStore, newConversation } from '../../../../../src/chat/history/core/store';
import { PRODUCT_PROMPT } from '../../../../../src/chat/prompt/core/systemPrompt';
import { RequestSlot } from '../../../../../src/chat/session/core/requestSlot';
import { SessionContext } from '../../../../../src/chat/session/core/sessionContext';
import type { SessionDeps, SessionSettings } from '../../../../../src/chat/session/core/sessionDeps';
import type { ContextMeter, Conversation, HostMessage, ToolMode } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { SETTINGS } from '../../../../support/sessionHarness';

const gw = useGateway({ contextModels: true });

interface Context {
  context: SessionContext;
  slot: RequestSlot;
  received: HostMessage[];
  storage: MemoryStorage;
  store: ConversationStore;
  conversation: Conversation;
}

/** `turns` answered turns with `chars` characters each, shown in a context over `settings`. */
function sessionContext(
  turns: number,
  settings: Partial<SessionSettings> = {},
  deps: Partial<SessionDeps> = {},
): Context {
  const received: HostMessage[] = [];
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const conversation = newConversation(1);
  for (let i = 0; i < turns; i++) {
    conversation.messages.push({
      id: `u${i}`,
      role: 'user',
      text: `question ${i}`,
      images: [],
      contexts: [],
      createdAt: 2 * i,
    });
    conversation.messages.push({
      id: `a${i}`,
      role: 'assistant',
      content: `answer ${i}`,
      status: 'done',
      requestedModel: 'gw-window-openai',
      createdAt: 2 * i + 1,
    });
  }
  const sink: SessionDeps['sink'] = { broadcast: (m) => received.push(structuredClone(m)), delta: () => undefined };
  const full: SessionDeps = {
    store,
    backend: () => Promise.resolve(new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 })),
    settings: () => ({ ...SETTINGS, chatModel: 'gw-window-openai', ...settings }),
    sink,
    log: { warn: () => undefined, error: () => undefined },
    contextStorage: storage,
    ...deps,
  };
  const slot = new RequestSlot(sink);
  const context = new SessionContext({
    deps: full,
    slot,
    now: () => 42,
    shown: () => conversation,
    executor: () => undefined,
    save: (c) => store.save(c),
  });
  return { context, slot, received, storage, store, conversation };
}

const meters = (received: HostMessage[]): ContextMeter[] =>
  received.flatMap((m) => (m.type === 'context/meter' ? [m.meter] : []));
const notices = (received: HostMessage[]): string[] =>
  received.flatMap((m) => (m.type === 'chat/notice' ? [`${m.level}: ${m.text}`] : []));

void test('the meter is for the shown conversation and its model, none without a model', () => {
  const s = sessionContext(2, { modelOverrides: { 'gw-window-openai': { contextWindow: 3000 } } });
  const [msg] = s.context.messages();
  assert.ok(msg && msg.type === 'context/meter');
  assert.equal(msg.meter.model, 'gw-window-openai');
  assert.deepEqual({ window: msg.meter.window, source: msg.meter.source }, { window: 3000, source: 'override' });
  assert.ok(msg.meter.history > 0);
  assert.deepEqual(sessionContext(1, { chatModel: '' }).context.messages(), []);
  assert.deepEqual(s.context.turnDefaults(), { model: 'gw-window-openai', systemPrompt: '', params: SETTINGS.params });
});

void test('after refreshPrompt the meter counts the system prompt as assembled, and is broadcast', async () => {
  let asked = 0;
  const s = sessionContext(
    1,
    { systemPrompt: 'Mine.' },
    {
      prompt: () => {
        asked++;
        return Promise.resolve({ environment: undefined, rules: [], rulesBlocked: false });
      },
    },
  );
  const before = meters(s.context.messages()).at(-1)!;
  await s.context.refreshPrompt();
  assert.equal(asked, 1);
  const after = meters(s.received).at(-1)!;
  assert.ok(after.system > before.system + 50, `${before.system} -> ${after.system}`);
  const system = s.context.requestDefaults().system!('Mine.');
  assert.ok(system.startsWith(PRODUCT_PROMPT) && system.endsWith('Mine.'));
  // The snapshot a request takes is kept for the meter too.
  const snapshot = await s.context.takePrompt(s.conversation);
  assert.deepEqual(snapshot.rules, []);
  assert.equal(asked, 2);
  // While a request runs the meter is not broadcast (the turn sends it at its end).
  s.slot.begin('r1');
  const count = meters(s.received).length;
  await s.context.refreshPrompt();
  assert.equal(meters(s.received).length, count);
});

void test('the error buttons set the tool mode of the shown model, remembered in the storage', async () => {
  const s = sessionContext(1);
  const modes: ToolMode[] = [];
  await s.context.action('toolsReadOnly');
  modes.push(meters(s.received).at(-1)!.toolMode);
  await s.context.action('toolsOff');
  modes.push(meters(s.received).at(-1)!.toolMode);
  assert.deepEqual(modes, ['readOnly', 'none']);
  assert.equal(s.context.guard.toolMode('gw-window-openai'), 'none');
  assert.equal(s.context.guard.toolMode('gw-chat'), 'all');
  assert.equal(
    new ContextGuard({ storage: s.storage, overrides: () => ({}), now: () => 1 }).toolMode('gw-window-openai'),
    'none',
  );
});

void test('Compact conversation summarises the turns before the latest question, saves, and says so', async () => {
  const s = sessionContext(3);
  s.conversation.messages.push({ id: 'u3', role: 'user', text: 'latest', images: [], contexts: [], createdAt: 9 });
  await s.context.action('compact');
  const c = s.conversation;
  assert.equal(c.compaction?.messageCount, 6);
  assert.equal(c.compaction?.throughId, 'a2');
  assert.match(c.compaction!.summary, /^Summary of/);
  assert.equal(c.updatedAt, 42);
  assert.deepEqual(s.store.load(c.id)!.compaction, c.compaction);
  assert.equal(s.store.load(c.id)!.messages.length, 7, 'the messages themselves are kept');
  const compacted = s.received.find((m) => m.type === 'context/compacted');
  assert.ok(compacted && compacted.type === 'context/compacted' && compacted.conversationId === c.id);
  assert.ok(
    notices(s.received).some((n) => /^info: .*6 messages are sent as one summary/.test(n)),
    notices(s.received).join(' | '),
  );
  assert.deepEqual(
    s.received.filter((m) => m.type === 'chat/busy' || m.type === 'chat/done').map((m) => m.type),
    ['chat/busy', 'chat/done'],
  );
  assert.equal(s.slot.busy, false);
  // Again: only the latest message is left.
  await s.context.compact();
  assert.ok(notices(s.received).some((n) => /Nothing to compact/.test(n)));
  assert.equal(s.conversation.compaction?.messageCount, 6);
});

void test('Compact while a request runs warns and changes nothing; a failed summary leaves the conversation as it was', async () => {
  const s = sessionContext(3);
  s.slot.begin('r1');
  await s.context.compact();
  assert.ok(notices(s.received).some((n) => /^warning: An answer is still streaming/.test(n)));
  assert.equal(s.conversation.compaction, undefined);
  s.slot.end('r1');
  gw.fault({ status: 500, times: 1 });
  const before = structuredClone(s.conversation);
  await s.context.compact();
  assert.ok(
    notices(s.received).some((n) => /^error: Compaction failed\..*left as it was/.test(n)),
    notices(s.received).join(' | '),
  );
  assert.deepEqual(s.conversation, before);
  assert.equal(s.store.load(s.conversation.id), undefined, 'nothing was saved');
  assert.equal(s.slot.busy, false);
});
