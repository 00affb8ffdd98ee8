import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ANSWER_CHARS,
  CONVERSATION_CHARS,
  reasoningToKeep,
  reasoningToReplay,
  trimReasoning,
} from '../../../../../src/chat/conversation/core/encryptedReasoning';
import type { AssistantMessage, ChatMessage } from '../../../../../src/shared/protocol';

const item = (chars: number, id = 'rs') => ({
  type: 'reasoning' as const,
  id,
  summary: [],
  encrypted_content: 'x'.repeat(chars),
});
const answer = (id: string, chars?: number): AssistantMessage => ({
  id,
  role: 'assistant',
  content: id,
  status: 'done',
  requestedModel: 'gw-codex',
  createdAt: 0,
  ...(chars !== undefined ? { encryptedReasoning: { model: 'gw-codex', items: [item(chars, id)] } } : {}),
});
const kept = (ms: ChatMessage[]) => ms.filter((m) => m.role === 'assistant' && m.encryptedReasoning).map((m) => m.id);

void test('an answer keeps all of its encrypted reasoning, or none of it past the limit', () => {
  const small = { model: 'gw-codex', items: [item(1000, 'a'), item(1000, 'b')] };
  const copy = reasoningToKeep(small, 'work');
  assert.deepEqual(copy, { ...small, profile: 'work' });
  assert.notEqual(copy!.items[0], small.items[0], 'a copy: the stored answer shares nothing with the client');
  assert.equal(reasoningToKeep({ model: 'gw-codex', items: [item(ANSWER_CHARS)] }, undefined), undefined);
  assert.equal(reasoningToKeep({ model: 'gw-codex', items: [] }, undefined), undefined);
  assert.equal(reasoningToKeep(undefined, undefined), undefined);
});

void test('a conversation past its limit drops the encrypted reasoning of its oldest answers first, nothing else', () => {
  const each = Math.floor(ANSWER_CHARS / 2);
  const n = Math.ceil(CONVERSATION_CHARS / each) + 2;
  const messages: ChatMessage[] = [];
  for (let i = 0; i < n; i++) {
    messages.push({ id: `u${i}`, role: 'user', text: 'q', images: [], contexts: [], createdAt: 0 });
    messages.push(answer(`a${i}`, each));
  }
  messages.push(answer('plain'));
  trimReasoning(messages);
  const left = kept(messages);
  assert.ok(left.length >= 1 && left.length < n, `${left.length} of ${n}`);
  assert.deepEqual(
    left,
    Array.from({ length: left.length }, (_, i) => `a${n - left.length + i}`),
    'the newest answers keep theirs',
  );
  const total = messages.reduce(
    (s, m) =>
      s + (m.role === 'assistant' && m.encryptedReasoning ? JSON.stringify(m.encryptedReasoning.items).length : 0),
    0,
  );
  assert.ok(total <= CONVERSATION_CHARS, `${total}`);
  assert.equal(messages.length, 2 * n + 1, 'no message is dropped');
  assert.ok(
    messages.every((m) => m.role !== 'assistant' || m.content === m.id),
    'no text is touched',
  );
});

void test("a conversation under its limit keeps every answer's encrypted reasoning", () => {
  const messages: ChatMessage[] = [answer('a0', 100), answer('a1', 100)];
  trimReasoning(messages);
  assert.deepEqual(kept(messages), ['a0', 'a1']);
});

void test("an answer's encrypted reasoning goes back only while the conversation is on the profile it came from", () => {
  const items = [item(10, 'a')];
  const onWork: AssistantMessage = {
    ...answer('a'),
    encryptedReasoning: { model: 'gw-codex', profile: 'work', items },
  };
  assert.deepEqual(reasoningToReplay({ profile: 'work' }, onWork), { model: 'gw-codex', items });
  assert.equal(reasoningToReplay({ profile: 'home' }, onWork), undefined, 'moved to another gateway');
  assert.equal(reasoningToReplay({}, onWork), undefined);
  const before = answer('b', 10);
  assert.deepEqual(reasoningToReplay({}, before), { model: 'gw-codex', items: before.encryptedReasoning!.items });
  assert.equal(reasoningToReplay({}, answer('c')), undefined);
});
