import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConversationStore, newConversation } from '../../../../../src/chat/history/core/store';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { openSession } from '../../../../support/sessionHarness';

/**
 * What the session tells the host side about the conversation shown, and the model it uses
 * (src/chat/session/core/session.ts). No request is made, so the gateway address is never used.
 */

const nowhere = { url: 'http://127.0.0.1:9', keys: { valid: 'unused' } };

void test('another conversation shown (opened, or a new chat) is announced once each, after the views got it; changes to the same one are not', async () => {
  const storage = new MemoryStorage();
  const stored = newConversation(1);
  stored.messages.push({ id: 'u1', role: 'user', text: 'hi', images: [], contexts: [], createdAt: 1 });
  await new ConversationStore(storage).save(stored);

  const announced: string[] = [];
  const h = openSession(nowhere, storage, {
    events: {
      conversationShown: (id) => {
        // The views must already show it: the host side's cards and checkpoints go after it.
        const inView = h.received.filter((m) => m.type === 'chat/conversation').at(-1);
        announced.push(`${id === stored.id ? 'stored' : 'new'}, in the views: ${inView?.conversation.id === id}`);
      },
    },
  });
  h.session.open(stored.id);
  h.session.open(stored.id); // already shown: nothing happens
  await h.session.setParams({ temperature: 0.5 }, undefined);
  assert.equal(h.received.filter((m) => m.type === 'chat/conversation').length, 2, 'setParams sent the conversation');
  h.session.newChat();
  assert.deepEqual(announced, ['stored, in the views: true', 'new, in the views: true']);
  h.session.dispose();
});

void test("the model in use is the conversation's own, else the setting, trimmed; the list's entry for it is unknown until the list loads", async () => {
  const h = openSession(nowhere, new MemoryStorage(), { settings: { chatModel: ' gw-chat ' } });
  assert.deepEqual(h.session.currentModel(), { id: 'gw-chat', info: undefined });
  await h.session.setModel('  other-model ');
  assert.deepEqual(h.session.currentModel(), { id: 'other-model', info: undefined });
  h.session.dispose();
});

void test("another conversation shown gets its own prompt assembled (its rules' chips), not the last one's", async () => {
  const storage = new MemoryStorage();
  const stored = newConversation(1);
  stored.disabledRules = ['rule-a'];
  stored.messages.push({ id: 'u1', role: 'user', text: 'hi', images: [], contexts: [], createdAt: 1 });
  await new ConversationStore(storage).save(stored);
  const assembledFor: string[] = [];
  const h = openSession(nowhere, storage, {
    prompt: (c) => {
      assembledFor.push(`${c.id === stored.id ? 'stored' : 'new'} off:${(c.disabledRules ?? []).join(',')}`);
      return Promise.resolve({ environment: undefined, rules: [], rulesBlocked: false });
    },
  });
  h.session.open(stored.id);
  h.session.newChat();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(assembledFor.slice(-2), ['stored off:rule-a', 'new off:']);
  h.session.dispose();
});
