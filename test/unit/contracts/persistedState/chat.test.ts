// The chat's persisted keys (src/contracts/persistedState/chat.ts): each key's name and store as
// stored today, its check, its default on bad data, and the conversation records' versions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chatIndexKey,
  contextWindowKey,
  followedTasksKey,
  PERSISTED_FAMILIES,
  rulesAllowedUntrustedKey,
  toolStateKey,
  webDomainsKey,
} from '../../../../src/contracts/persistedState/chat';
import { decodeState, loadState } from '../../../../src/contracts/persistedState/state';

const stored = (value: unknown) => ({ get: () => value, update: () => Promise.resolve() });

void describe('chat keys keep the names and stores earlier versions wrote', () => {
  void it('names, stores and versions', () => {
    assert.deepEqual(
      [chatIndexKey, rulesAllowedUntrustedKey, toolStateKey, followedTasksKey, contextWindowKey].map((k) => [
        k.key,
        k.store,
        k.version,
      ]),
      [
        ['gatewayStudio.chat.index', 'workspace', 1],
        ['gatewayStudio.chat.rulesAllowedUntrusted', 'workspace', 1],
        ['gatewayStudio.tools.state', 'workspace', 1],
        ['gatewayStudio.chat.followedTasks', 'workspace', 1],
        ['gatewayStudio.chat.contextWindow', 'workspace', 1],
      ],
    );
    const c = PERSISTED_FAMILIES.chatConversation;
    assert.equal(c.keyOf('c1'), 'gatewayStudio.chat.conversation.c1');
    assert.ok(c.keyOf('c1').startsWith(c.prefix));
    // 3: a long conversation's head, its messages in part records (chat/history/core/parts.ts).
    assert.equal(c.version, 3);
    const part = PERSISTED_FAMILIES.chatConversationPart;
    assert.equal(part.keyOf('c1.4'), 'gatewayStudio.chat.part.c1.4');
    assert.ok(!part.prefix.startsWith(c.prefix), 'a part is never read as a conversation record');
  });
});

void describe('the history', () => {
  void it('an index of version 1 is read; a newer one or a broken one is not (the store rebuilds it)', () => {
    const index = { version: 1, activeId: 'c1', entries: [{ id: 'c1', title: 't', updatedAt: 1, messageCount: 2 }] };
    assert.deepEqual(decodeState(chatIndexKey, index), index);
    assert.equal(decodeState(chatIndexKey, { ...index, version: 2 }), undefined);
    assert.equal(decodeState(chatIndexKey, { version: 1, entries: 'x' }), undefined);
    assert.equal(decodeState(chatIndexKey, { version: 1, activeId: 3, entries: [] }), undefined);
  });

  void it('a conversation record of either version has its envelope; anything else is not one', () => {
    const check = PERSISTED_FAMILIES.chatConversation.check;
    assert.ok(check({ version: 1, conversation: { id: 'c' } }));
    assert.ok(check({ version: 2, conversation: { id: 'c' } }));
    assert.equal(check({ version: 'x', conversation: {} }), undefined);
    assert.equal(check({ version: 1 }), undefined);
  });

  void it('a part has version 3 and its messages; anything else is not one', () => {
    const check = PERSISTED_FAMILIES.chatConversationPart.check;
    assert.ok(check({ version: 3, messages: [] }));
    assert.equal(check({ version: 2, messages: [] }), undefined);
    assert.equal(check({ version: 3, messages: {} }), undefined);
    assert.equal(check(undefined), undefined);
  });
});

void describe('the web domains allowed for fetch_url', () => {
  void it('kept per user (global), a list of names; anything else reads as none allowed', () => {
    assert.deepEqual(
      [webDomainsKey.key, webDomainsKey.store, webDomainsKey.version],
      ['gatewayStudio.web.allowedDomains', 'global', 1],
    );
    assert.deepEqual(loadState(stored(['example.com']), webDomainsKey), ['example.com']);
    assert.deepEqual(loadState(stored('example.com'), webDomainsKey), []);
  });
});

void describe('the other chat keys', () => {
  void it('rules allowed in an untrusted workspace: true only when stored true', () => {
    assert.equal(loadState(stored(true), rulesAllowedUntrustedKey), true);
    assert.equal(loadState(stored('true'), rulesAllowedUntrustedKey), false);
    assert.equal(loadState(stored(undefined), rulesAllowedUntrustedKey), false);
  });

  void it('tool state: each field falls back on its own; a partial value of an earlier version reads', () => {
    assert.deepEqual(loadState(stored({ trusted: ['run_command', 3] }), toolStateKey), {
      enabled: {},
      trusted: ['run_command'],
      choice: 'auto',
    });
    assert.deepEqual(
      loadState(
        stored({ enabled: { a: false, b: 'yes' }, trusted: 'x', choice: { name: 'read_file', extra: 1 } }),
        toolStateKey,
      ),
      { enabled: { a: false }, trusted: [], choice: { name: 'read_file' } },
    );
    assert.deepEqual(loadState(stored({ choice: { name: '' } }), toolStateKey).choice, 'auto');
    assert.deepEqual(loadState(stored('broken'), toolStateKey), { enabled: {}, trusted: [], choice: 'auto' });
  });

  void it('followed tasks keep the entries of the right shape', () => {
    const good = { kind: 'video', conversationId: 'c', callId: 'k', key: 't1' };
    assert.deepEqual(
      loadState(stored([good, { ...good, kind: 'other' }, { ...good, callId: 3 }, null]), followedTasksKey),
      [good],
    );
    assert.deepEqual(loadState(stored({ 0: good }), followedTasksKey), []);
  });

  void it("a followed task stored before media kinds ('videoTask') reads as a video job", () => {
    const old = { kind: 'videoTask', conversationId: 'c', callId: 'k', key: 't1' };
    const board = { ...old, kind: 'storyboard', key: 'b1' };
    assert.deepEqual(loadState(stored([old, board]), followedTasksKey), [{ ...old, kind: 'video' }, board]);
  });

  void it('context windows keep each valid field of each model', () => {
    assert.deepEqual(
      decodeState(contextWindowKey, {
        a: { learned: 8192, toolMode: 'readOnly' },
        b: { learned: 'big', toolMode: 'some' },
        c: 'x',
      }),
      { a: { learned: 8192, toolMode: 'readOnly' }, b: {} },
    );
    assert.deepEqual(loadState(stored([1]), contextWindowKey), {});
  });
});

void describe('the queued messages', () => {
  void it('keep their name; an item of a bad shape is dropped, the others kept', async () => {
    const { queuedMessagesKey } = await import('../../../../src/contracts/persistedState/chat');
    assert.deepEqual(
      [queuedMessagesKey.key, queuedMessagesKey.store],
      ['gatewayStudio.chat.queuedMessages', 'workspace'],
    );
    const good = { conversationId: 'c1', id: 'q1', text: 'later', createdAt: 5 };
    assert.deepEqual(loadState(stored([good, { ...good, text: 3 }, null]), queuedMessagesKey), [good]);
    assert.deepEqual(loadState(stored('nonsense'), queuedMessagesKey), []);
  });
});
