// Issue 22: encrypted reasoning is requested and replayed on the Responses API, also after a
// reload: the answer keeps it in the conversation's record, and a new store, a new client and a
// new turn send it back to the local gateway, which refuses ciphertext it did not make.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import { conversationToMarkdown } from '../../../../../src/chat/history/core/export';
import type { RequestDefaults } from '../../../../../src/chat/conversation/core/request';
import { runTurn } from '../../../../../src/chat/session/core/turnRunner';
import type { AssistantMessage, Conversation } from '../../../../../src/shared/protocol';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { UNSET_PARAMS, useGateway, userConversation } from '../../../../support/helpers';

const gw = useGateway();
const defaults: RequestDefaults = { model: 'gw-codex', systemPrompt: '', params: UNSET_PARAMS };
const turn = (c: Conversation) =>
  runTurn({
    // A new client each time: nothing is remembered in the process (a reloaded window).
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: c,
    defaults,
    maxRounds: 3,
    signal: new AbortController().signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
  });

void test('an answer keeps its encrypted reasoning in the stored conversation; after a reload the next turn sends it back', async () => {
  const storage = new MemoryStorage();
  const c = userConversation('think first');
  assert.equal((await turn(c)).status, 'done');
  const first = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
  assert.equal(first.encryptedReasoning?.model, 'gw-codex');
  const cipher = first.encryptedReasoning!.items[0]!.encrypted_content;
  assert.match(cipher, /^gwenc:/);
  await new ConversationStore(storage).save(c);

  const restored = new ConversationStore(storage).load(c.id)!;
  const kept = restored.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
  assert.deepEqual(kept.encryptedReasoning, first.encryptedReasoning, 'the record keeps it as it came');
  // The export keeps the reasoning the user saw, never the ciphertext.
  const md = conversationToMarkdown(restored);
  assert.match(md, /<summary>Reasoning<\/summary>[\s\S]*I will answer plainly/);
  assert.ok(!md.includes(cipher));

  gw.resetCounts();
  restored.messages.push({ id: 'u2', role: 'user', text: 'and now?', images: [], contexts: [], createdAt: 2 });
  assert.equal((await turn(restored)).status, 'done');
  const sent = gw.requests().filter((r) => r.route === '/v1/responses');
  assert.equal(sent.length, 1);
  const input = (sent[0]!.body as { input: Array<Record<string, unknown>> }).input;
  assert.deepEqual(
    input.map((i) => i.type ?? i.role),
    ['user', 'reasoning', 'message', 'user'],
  );
  assert.equal(input[1]!.encrypted_content, cipher);
});

void test('a conversation moved to another gateway profile does not send the encrypted reasoning of the one before', async () => {
  const c = userConversation('think on work', { profile: 'work' });
  assert.equal((await turn(c)).status, 'done');
  const first = c.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
  assert.equal(first.encryptedReasoning?.profile, 'work');
  c.profile = 'home';
  gw.resetCounts();
  c.messages.push({ id: 'u2', role: 'user', text: 'and now?', images: [], contexts: [], createdAt: 2 });
  assert.equal((await turn(c)).status, 'done');
  const input = (
    gw.requests().find((r) => r.route === '/v1/responses')!.body as { input: Array<Record<string, unknown>> }
  ).input;
  assert.deepEqual(
    input.map((i) => i.type ?? i.role),
    ['user', 'message', 'user'],
  );
});
