// The queued messages' page model (webview/chat/models/queue.ts): what Enter and Ctrl/Cmd+Enter post
// while an answer runs, each conversation's list as the host sends it, and text the host gives back.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createQueueModel } from '../../../../../webview/chat/models/queue';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { signal } from '@preact/signals';
import { liveRegion, recordPosts } from '../../nodePage';
import { conversation, DEFAULTS } from './fixtures';

function setUp() {
  const posted = recordPosts();
  const { t } = createStringsModel();
  const conv = createConversationModel({ t });
  conv.show(conversation('c1'), DEFAULTS, 'gw-chat', '');
  conv.busyRequestId.value = 'r1';
  const composer = { draft: signal('') };
  const queue = createQueueModel({ conversation: conv, composer, t });
  return { posted, conv, composer, queue };
}

void test('Enter while an answer runs queues the box text for its conversation and empties the box', () => {
  const { posted, composer, queue } = setUp();
  const region = liveRegion();
  composer.draft.value = 'also update the docs';
  queue.add(false);
  assert.deepEqual(posted, [{ type: 'queue/add', conversationId: 'c1', text: 'also update the docs' }]);
  assert.equal(composer.draft.value, '');
  assert.equal(region.text(), 'Queued: sent when the current step ends.');
  composer.draft.value = 'stop, wrong file';
  queue.add(true);
  assert.deepEqual(posted[1], { type: 'queue/add', conversationId: 'c1', text: 'stop, wrong file', now: true });
  assert.equal(region.text(), 'Stopping the answer to send your message.');
});

void test('an empty box queues nothing; Ctrl+Enter on it sends what is queued', () => {
  const { posted, queue } = setUp();
  queue.add(false);
  queue.add(true);
  assert.deepEqual(posted, [], 'nothing queued: nothing to send');
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [{ id: 'q1', text: 'x', createdAt: 1 }] });
  queue.add(true);
  assert.deepEqual(posted, [{ type: 'queue/sendNow', conversationId: 'c1' }]);
});

void test("each conversation's list is kept; the shown one is listed; edits, removal and an emptied edit", () => {
  const { posted, conv, queue } = setUp();
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [{ id: 'q1', text: 'for c1', createdAt: 1 }] });
  queue.onHost({ type: 'queue/list', conversationId: 'c2', items: [{ id: 'q2', text: 'for c2', createdAt: 1 }] });
  assert.deepEqual(
    queue.items.value.map((i) => i.text),
    ['for c1'],
  );
  conv.show(conversation('c2'), DEFAULTS, 'gw-chat', '');
  assert.deepEqual(
    queue.items.value.map((i) => i.text),
    ['for c2'],
    'the queue stays with its conversation',
  );
  queue.editing.value = 'q2';
  queue.save('q2', 'for c2, edited');
  assert.equal(queue.editing.value, undefined);
  queue.save('q2', '   ');
  queue.remove('q2');
  queue.sendNow();
  assert.deepEqual(posted, [
    { type: 'queue/edit', conversationId: 'c2', id: 'q2', text: 'for c2, edited' },
    { type: 'queue/remove', conversationId: 'c2', id: 'q2' },
    { type: 'queue/remove', conversationId: 'c2', id: 'q2' },
    { type: 'queue/sendNow', conversationId: 'c2' },
  ]);
});

void test('text the host could not queue comes back into an empty box only, and only in its conversation', () => {
  const { composer, queue } = setUp();
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [], returned: 'too many' });
  assert.equal(composer.draft.value, 'too many');
  composer.draft.value = 'typed since';
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [], returned: 'again' });
  assert.equal(composer.draft.value, 'typed since', 'what the user typed since is not replaced');
  composer.draft.value = '';
  queue.onHost({ type: 'queue/list', conversationId: 'other', items: [], returned: 'elsewhere' });
  assert.equal(composer.draft.value, '');
});

void test('an edit of a message that was sent meanwhile ends the edit', () => {
  const { queue } = setUp();
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [{ id: 'q1', text: 'x', createdAt: 1 }] });
  queue.editing.value = 'q1';
  queue.onHost({ type: 'queue/list', conversationId: 'c1', items: [] });
  assert.equal(queue.editing.value, undefined);
  assert.equal(queue.busy.value, true);
});
