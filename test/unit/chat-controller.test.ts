import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebviewMessage } from '../../src/shared/protocol';
import { useChatHarness } from './chatHarness';

/**
 * The chat controller's host logic in plain node: a minimal stand-in for the `vscode` module
 * (settings, events, l10n) is installed before the controller loads, and turns go through real
 * HTTP to the local gateway. Only what the controller touches on these paths exists here.
 */

// The export test needs a save dialog and a write that fails as a read-only folder would.
const chat = useChatHarness({
  window: {
    showSaveDialog: () => Promise.resolve({ path: '/read-only/notes.md', toString: () => 'file:///read-only/notes.md' }),
    showInformationMessage: () => Promise.resolve(undefined),
  },
  workspace: {
    fs: { writeFile: () => Promise.reject(new Error("EACCES: permission denied, open '/read-only/notes.md'")) },
    asRelativePath: (u: { path: string }) => u.path,
  },
});
const gw = chat.gw;

const harness = () => chat.open();

void test('opening the conversation already shown from the history, mid-answer, neither stops the answer nor loses its messages', async () => {
  const h = harness();
  h.post({ type: 'webview/ready' });
  // A first finished turn puts the conversation into the history.
  h.post({ type: 'chat/send', requestId: 'r1', text: 'first question', images: [], contexts: [] });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the first answer');
  const id = h.controller.conversationId;

  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 20 });
  h.post({ type: 'chat/send', requestId: 'r2', text: '#long 60', images: [], contexts: [] });
  await h.until(() => h.received.filter((m) => m.type === 'chat/delta').length >= 2, 'the second answer to stream');
  h.post({ type: 'history/open', conversationId: id });
  await h.until(() => h.received.some((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === 'r2'), 'the second answer to end');

  const end = h.received.find((m) => (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === 'r2');
  assert.equal(end?.type === 'chat/done' && end.message?.status, 'done', 'the answer ran to its end');
  // The next message goes into the same, complete conversation: nothing is dropped by its save.
  h.post({ type: 'chat/send', requestId: 'r3', text: 'third question', images: [], contexts: [] });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r3'), 'the third answer');
  const saved = new chat.store.ConversationStore(h.storage).load(id);
  assert.deepEqual(
    saved?.messages.map((m) => (m.role === 'user' ? `user: ${m.text}` : `${m.role}: ${m.role === 'assistant' ? m.status : ''}`)),
    ['user: first question', 'assistant: done', 'user: #long 60', 'assistant: done', 'user: third question', 'assistant: done'],
  );
  h.controller.dispose();
});

void test('an export that cannot be written says so in the chat instead of failing silently', async () => {
  const h = harness();
  h.post({ type: 'webview/ready' });
  h.post({ type: 'chat/send', requestId: 'r1', text: 'something worth keeping', images: [], contexts: [] });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the answer');
  h.post({ type: 'chat/export' });
  await h.until(() => h.received.some((m) => m.type === 'chat/notice' && m.level === 'error'), 'an error notice');
  const notice = h.received.find((m) => m.type === 'chat/notice' && m.level === 'error');
  assert.match(notice?.type === 'chat/notice' ? notice.text : '', /EACCES: permission denied/);
  h.controller.dispose();
});

void test('a request the host cannot accept (21 images) ends with an error naming the problem, so the panel is not left busy', async () => {
  const h = harness();
  h.post({ type: 'webview/ready' });
  const image = { name: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 };
  h.post({ type: 'chat/send', requestId: 'r-many', text: 'look', images: Array.from({ length: 21 }, () => image), contexts: [] } as WebviewMessage);
  await h.until(() => h.received.some((m) => (m.type === 'chat/error' || m.type === 'chat/done') && m.requestId === 'r-many'), 'the request to end');
  const end = h.received.find((m) => m.type === 'chat/error' && m.requestId === 'r-many');
  assert.equal(end?.type, 'chat/error');
  assert.match(end?.type === 'chat/error' ? end.error.detail : '', /images/);
  assert.equal(end?.type === 'chat/error' ? end.message : 'x', undefined, 'nothing was added to the conversation');
  h.controller.dispose();
});

void test('the question is saved as soon as it is sent, before its answer ends (a crash mid-answer does not lose it)', async () => {
  const h = harness();
  h.post({ type: 'webview/ready' });
  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 20 });
  h.post({ type: 'chat/send', requestId: 'r1', text: '#long 60', images: [], contexts: [] });
  await h.until(() => h.received.filter((m) => m.type === 'chat/delta').length >= 2, 'the answer to stream');
  const stored = new chat.store.ConversationStore(h.storage);
  const mid = stored.load(h.controller.conversationId);
  assert.equal(mid?.messages[0]?.role === 'user' && mid.messages[0].text, '#long 60');
  assert.equal(stored.activeId, h.controller.conversationId, 'it is also the conversation shown after a restart');
  h.post({ type: 'chat/cancel', requestId: 'r1' });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the stop');
  h.controller.dispose();
});

void test('a selection added before any chat view exists (first "Ask about the selection") reaches the view once it is ready', async () => {
  const { controller, received, post } = chat.open(undefined, {
    beforeAttach: (c) => c.addContext({ fileName: 'src/x.ts', language: 'typescript', text: 'return a - b;', startLine: 1, endLine: 1 }),
  });
  post({ type: 'webview/ready' });
  const at = received.findIndex((m) => m.type === 'chat/context');
  const ctx = received[at];
  assert.equal(ctx?.type === 'chat/context' && ctx.context.text, 'return a - b;');
  assert.ok(received.findIndex((m) => m.type === 'chat/snapshot') < at, 'after the snapshot, so it is not wiped');
  controller.dispose();
});

void test('an edited and resent question is stored as soon as it is sent, so a window closed mid-answer keeps the edit', async () => {
  const h = harness();
  h.post({ type: 'webview/ready' });
  h.post({ type: 'chat/send', requestId: 'r1', text: 'what is two plus two', images: [], contexts: [] });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the first answer');
  const id = h.controller.conversationId;

  gw.fault({ match: { path: '/chat/completions' }, chunkDelayMs: 50 });
  h.post({ type: 'chat/editResend', requestId: 'r2', text: 'what is three plus three #long 40' });
  await h.until(() => h.received.filter((m) => m.type === 'chat/delta' && m.requestId === 'r2').length >= 2, 'the new answer to stream');
  // Read the storage as a reloaded window would, while the answer is still streaming.
  const midAnswer = new chat.store.ConversationStore(h.storage).load(id);
  assert.deepEqual(
    midAnswer?.messages.map((m) => (m.role === 'user' ? `user: ${m.text}` : m.role)),
    ['user: what is three plus three #long 40'],
    'the stored conversation still has the old question or its answer',
  );
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r2'), 'the new answer to end');
  h.controller.dispose();
});
