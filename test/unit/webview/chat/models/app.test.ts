// The chat page's composition (webview/chat/models/app.ts): host messages as they arrive on the
// page, checked as the page receives them, routed to their models, and what the page posts back.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEBVIEW_STRINGS } from '../../../../../src/shared/webviewStrings';
import { createChatApp } from '../../../../../webview/chat/models/app';
import { liveRegion, recordPosts } from '../../nodePage';
import { answer, conversation, DEFAULTS, user } from './fixtures';

const STRINGS = Object.fromEntries(WEBVIEW_STRINGS.map((k) => [k, k]));
const labels: string[] = [];
const snapshot = (c = conversation('c1', [user('u1'), answer('a1')]), busyRequestId?: string) => ({
  type: 'chat/snapshot',
  conversation: c,
  defaults: DEFAULTS,
  defaultModel: 'gw-chat',
  defaultSystemPrompt: '',
  strings: STRINGS,
  maxImageBytes: 2 * 1024 * 1024,
  ...(busyRequestId ? { busyRequestId } : {}),
});

void test('a snapshot shows the conversation, its strings and the image limit; what is not a message is dropped', () => {
  const app = createChatApp({ setImageLabel: (label) => labels.push(label) });
  app.onHostMessage({ not: 'a message' });
  app.onHostMessage('chat/snapshot');
  assert.equal(app.conversation.id.value, undefined);
  app.onHostMessage(snapshot(undefined, 'r0'));
  assert.deepEqual(app.conversation.rows.value, ['u1', 'a1']);
  assert.equal(app.composer.maxImageBytes.value, 2 * 1024 * 1024);
  assert.equal(app.conversation.busyRequestId.value, 'r0');
  assert.equal(app.strings.strings.value['Answer stopped.'], 'Answer stopped.');
  assert.equal(labels.at(-1), 'image: {0}', 'the markdown gets its image label in the page’s language');
});

void test('a turn: Send, the host takes it over, the answer streams in and ends, and is read out', () => {
  const posted = recordPosts();
  const region = liveRegion();
  const app = createChatApp({ setImageLabel: (label) => labels.push(label) });
  app.onHostMessage(snapshot(conversation('c1')));
  app.composer.draft.value = 'hello?';
  app.composer.send();
  const requestId = (posted[0] as { requestId: string }).requestId;
  app.onHostMessage({ type: 'chat/busy', requestId });
  app.onHostMessage({ type: 'chat/message', requestId, message: user('u1', 'hello?') });
  app.onHostMessage({ type: 'chat/message', requestId, message: answer('a1', { status: 'streaming', content: '' }) });
  app.onHostMessage({ type: 'chat/done', requestId, message: answer('a1', { content: 'hi' }) });
  assert.deepEqual(app.conversation.rows.value, ['u1', 'a1']);
  assert.equal(app.conversation.busy.value, false);
  assert.equal(region.text(), 'Answer finished.');
  app.composer.restoreUnconfirmed(requestId);
  assert.equal(app.composer.draft.value, '', 'the host took the question: nothing comes back');
});

void test('a request the host refuses ends with an error: the question comes back and the error is read out', () => {
  const posted = recordPosts();
  const region = liveRegion();
  const app = createChatApp({ setImageLabel: (label) => labels.push(label) });
  app.onHostMessage(snapshot(conversation('c1')));
  app.composer.draft.value = 'refused question';
  app.composer.send();
  const requestId = (posted[0] as { requestId: string }).requestId;
  app.onHostMessage({ type: 'chat/error', requestId, error: { title: 'No API key', detail: 'Set one first.' } });
  assert.equal(app.composer.draft.value, 'refused question');
  assert.equal(app.conversation.busy.value, false);
  assert.equal(app.conversation.standaloneError.value?.requestId, requestId);
  assert.equal(region.text(), 'No API key. Set one first.');
});

void test('another conversation ends an edit and the checkpoints of the last; notices and contexts reach the composer', () => {
  const app = createChatApp({ setImageLabel: (label) => labels.push(label) });
  app.onHostMessage(snapshot());
  app.composer.beginEdit('question u1');
  app.onHostMessage({
    type: 'checkpoints/list',
    conversationId: 'c1',
    answers: [{ answerId: 'a1', files: 1, unrecorded: 0 }],
  });
  assert.equal(app.checkpoints.summaries.value.size, 1);
  app.onHostMessage({
    type: 'chat/conversation',
    conversation: conversation('c2'),
    defaults: DEFAULTS,
    defaultModel: 'gw-chat',
    defaultSystemPrompt: '',
  });
  assert.equal(app.composer.editing.value, false);
  assert.equal(app.composer.draft.value, 'question u1');
  assert.equal(app.checkpoints.summaries.value.size, 0);
  app.onHostMessage({ type: 'chat/notice', text: 'Copied.', level: 'info' });
  assert.deepEqual(app.composer.notes.value, [{ level: 'info', text: 'Copied.' }]);
  const context = { fileName: '/ws/a.ts', language: 'typescript', text: 'x', startLine: 0, endLine: 0 };
  app.onHostMessage({ type: 'chat/context', context, prompt: 'Explain' });
  assert.deepEqual(app.composer.contexts.value, [context]);
  assert.equal(
    app.composer.draft.value,
    'question u1',
    'the typed text stays; the suggestion goes only into an empty box',
  );
  app.onHostMessage({
    type: 'chat/cost',
    conversationId: 'c2',
    messageId: 'nope',
    cost: { unit: { kind: 'USD', quotaPerUnit: 1, rateMicro: 1, symbol: '$' }, estimate: true },
  });
  app.onHostMessage({ type: 'profiles/list', profiles: [{ id: 'w', name: 'Work' }], active: 'w' });
  assert.equal(app.profiles.active.value, 'w', 'other namespaces reach their models');
});
