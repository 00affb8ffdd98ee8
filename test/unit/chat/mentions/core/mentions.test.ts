import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { attachmentTexts } from '../../../../../src/chat/context/core/compaction';
import { conversationToMarkdown } from '../../../../../src/chat/history/core/export';
import {
  ATTACHMENT_CHAR_LIMIT,
  formatFolderListing,
  formatProblems,
  formatTerminalOutput,
  makeAttachment,
  withinBudget,
  FOLDER_ENTRY_LIMIT,
} from '../../../../../src/chat/mentions/core/mentions';
import { formatAttachment } from '../../../../../src/chat/conversation/core/attachments';
import { buildChatRequest, userContent } from '../../../../../src/chat/conversation/core/request';
import { ConversationStore, newConversation, titleFor } from '../../../../../src/chat/history/core/store';
import type { ContextAttachment, UserMessage } from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, useGateway } from '../../../../support/helpers';
import { MemoryStorage } from '../../../../support/memoryStorage';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function user(text: string, attachments: ContextAttachment[], images: UserMessage['images'] = []): UserMessage {
  return { id: 'u1', role: 'user', text, images, contexts: [], attachments, createdAt: 1 };
}

void test('content within the limit is attached whole, without a truncation mark', () => {
  const a = makeAttachment(
    { kind: 'file', label: 'src/a.ts', path: 'src/a.ts', language: 'typescript' },
    'const a = 1;\n',
  );
  assert.equal(a.text, 'const a = 1;\n');
  assert.equal(a.truncated, undefined);
  assert.equal(a.originalChars, undefined);
});

void test('content over the limit is cut at a line break and keeps its full size for the note', () => {
  const line = 'x'.repeat(99) + '\n';
  const text = line.repeat(500); // 50,000 characters
  const a = makeAttachment({ kind: 'file', label: 'big.txt', path: 'big.txt' }, text);
  assert.equal(a.truncated, true);
  assert.equal(a.originalChars, 50_000);
  assert.ok(a.text.length <= ATTACHMENT_CHAR_LIMIT);
  assert.ok(a.text.endsWith('x'), 'cut at a line end, not in a line');
  assert.match(
    formatAttachment(a),
    /\[Truncated: 23,999 of 50,000 characters shown; read the rest with a tool if needed\.\]$/,
  );
});

void test('a line longer than the limit is cut at the limit itself', () => {
  const a = makeAttachment({ kind: 'file', label: 'min.js' }, 'y'.repeat(100), 40);
  assert.equal(a.text.length, 40);
  assert.equal(a.truncated, true);
});

void test('the total budget is shared in order: later attachments get what earlier ones left', () => {
  const a = makeAttachment({ kind: 'file', label: 'a' }, 'a'.repeat(60));
  const b = makeAttachment({ kind: 'file', label: 'b' }, 'b'.repeat(60));
  const c = makeAttachment({ kind: 'file', label: 'c' }, 'c'.repeat(60));
  const [x, y, z] = withinBudget([a, b, c], 100);
  assert.equal(x!.text.length, 60);
  assert.equal(x!.truncated, undefined);
  assert.equal(y!.text.length, 40);
  assert.equal(y!.truncated, true);
  assert.equal(y!.originalChars, 60);
  assert.equal(z!.text, '');
  assert.equal(z!.truncated, true);
  assert.equal(z!.originalChars, 60);
});

void test('problems are listed errors first, by file and line, one line each', () => {
  const text = formatProblems([
    { path: 'b.ts', line: 2, column: 1, severity: 'warning', message: 'unused' },
    { path: 'b.ts', line: 9, column: 5, severity: 'error', message: 'type\n  mismatch', source: 'ts' },
    { path: 'a.ts', line: 1, column: 1, severity: 'error', message: 'missing' },
  ]);
  assert.equal(text, 'a.ts:1:1 error: missing\nb.ts:9:5 error (ts): type mismatch\nb.ts:2:1 warning: unused');
  assert.equal(formatProblems([]), 'No problems.');
});

void test('a folder listing names folders first with a slash, and stops at its limit', () => {
  assert.equal(
    formatFolderListing([
      { name: 'z.txt', directory: false },
      { name: 'src', directory: true },
      { name: 'a.txt', directory: false },
    ]),
    'src/\na.txt\nz.txt',
  );
  const many = Array.from({ length: FOLDER_ENTRY_LIMIT + 5 }, (_, i) => ({
    name: `f${String(i).padStart(3, '0')}`,
    directory: false,
  }));
  const lines = formatFolderListing(many).split('\n');
  assert.equal(lines.length, FOLDER_ENTRY_LIMIT + 1);
  assert.equal(lines.at(-1), '… and 5 more entries.');
});

void test('terminal output loses its escape sequences and keeps the command and exit code', () => {
  const out = formatTerminalOutput('npm test', '\u001b[31mFAIL\u001b[0m one\r\n\u001b]633;D;1\u0007done\r\n', 1);
  assert.equal(out, '$ npm test (exit code 1)\nFAIL one\ndone\n');
});

void test('attachments come before the question in the user message, images after as image parts', () => {
  const a = makeAttachment({ kind: 'file', label: 'notes.txt', path: 'notes.txt' }, 'remember the milk\n');
  assert.equal(userContent(user('what does it say?', [a])), `${formatAttachment(a)}\n\nwhat does it say?`);
  const img = makeAttachment(
    { kind: 'image', label: 'd.png', path: 'd.png', note: 'Its workspace path is d.png.' },
    '',
  );
  const parts = userContent(
    user('make a clip', [img], [{ name: 'd.png', mime: 'image/png', dataUrl: PNG, bytes: 70 }]),
  );
  assert.ok(Array.isArray(parts));
  assert.deepEqual(parts[0], { type: 'text', text: `${formatAttachment(img)}\n\nmake a clip` });
  assert.deepEqual(parts[1], { type: 'image_url', image_url: { url: PNG } });
});

void test('a conversation stored before mentions existed still loads, and one with attachments round-trips', async () => {
  const storage = new MemoryStorage();
  const old = newConversation(5);
  // Exactly the shape older versions wrote: no `attachments` key on the user message.
  old.messages.push({ id: 'u5', role: 'user', text: 'old question', images: [], contexts: [], createdAt: 5 });
  await storage.update(`gatewayStudio.chat.conversation.${old.id}`, { version: 1, conversation: old });
  const store = new ConversationStore(storage);
  assert.equal(store.load(old.id)?.messages[0]?.role, 'user');

  const c = newConversation(6);
  const a = makeAttachment({ kind: 'file', label: 'a.ts', path: 'a.ts' }, 'x'.repeat(30), 10);
  c.messages.push(user('q', [a]));
  await store.save(c);
  const back = new ConversationStore(storage).load(c.id);
  const m = back?.messages[0];
  assert.equal(m?.role === 'user' ? m.attachments?.[0]?.truncated : undefined, true);
});

void test('the Markdown export shows what the model saw of each mention', () => {
  const c = newConversation(7);
  c.messages.push(user('why?', [makeAttachment({ kind: 'file', label: 'a.ts', path: 'a.ts' }, 'let a;\n')]));
  const md = conversationToMarkdown(c);
  assert.ok(md.includes('<summary>📎 a.ts</summary>'), md);
  assert.ok(md.includes('[Attached file: a.ts (path: a.ts)]'), md);
});

let client: GatewayClient;
const gw = useGateway({
  onStarted: (started) => {
    client = new GatewayClient({ baseUrl: started.url, apiKey: started.keys.valid, maxRetries: 0 });
  },
});

void test('the gateway receives the labelled attachment in the user message and answers the question', async () => {
  const c = newConversation(8);
  c.messages.push(
    user('#say ok', [makeAttachment({ kind: 'file', label: 'plan.txt', path: 'plan.txt' }, 'ship Friday\n')]),
  );
  gw.resetCounts();
  const r = await client.streamChat(buildChatRequest(c, { model: 'gw-chat', systemPrompt: '', params: UNSET_PARAMS }));
  assert.equal(r.message.content, 'ok');
  const body = gw.requests().find((x) => x.route === '/v1/chat/completions')?.body as {
    messages: { role: string; content: string }[];
  };
  const sent = body.messages.find((m) => m.role === 'user')?.content ?? '';
  assert.match(sent, /^\[Attached file: plan\.txt \(path: plan\.txt\)\]\n```\nship Friday\n```\n\n#say ok$/);
});

void test('a message of mentions alone is titled by its first mention', () => {
  const c = newConversation(9);
  c.messages.push(user('', [makeAttachment({ kind: 'changes', label: 'Changes' }, 'diff')]));
  assert.equal(titleFor(c), 'Changes');
});

void test('the context meter counts a message’s mentions as attachments', () => {
  const c = newConversation(10);
  const a = makeAttachment({ kind: 'file', label: 'a.ts', path: 'a.ts' }, 'let a = 1;\n');
  c.messages.push(user('why?', [a]));
  assert.deepEqual(attachmentTexts(c), [formatAttachment(a)]);
});
