// The queued messages' protocol: each names its conversation; empty ids and oversized text are refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostMessageSchema, parseWebviewMessage } from '../../../../src/shared/protocol';

void describe('protocol: queued messages', () => {
  void it('takes add, edit, remove and send now with their conversation', () => {
    for (const m of [
      { type: 'queue/add', conversationId: 'c1', text: 'later' },
      { type: 'queue/add', conversationId: 'c1', text: 'now', now: true },
      { type: 'queue/edit', conversationId: 'c1', id: 'q1', text: 'changed' },
      { type: 'queue/remove', conversationId: 'c1', id: 'q1' },
      { type: 'queue/sendNow', conversationId: 'c1' },
    ])
      assert.ok(parseWebviewMessage(m).ok, JSON.stringify(m));
  });

  void it('refuses a message without its conversation, an empty id, or text over 200 000 characters', () => {
    assert.equal(parseWebviewMessage({ type: 'queue/add', text: 'x' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'queue/remove', conversationId: 'c1', id: '' }).ok, false);
    const r = parseWebviewMessage({ type: 'queue/add', conversationId: 'c1', text: 'x'.repeat(200_001) });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.problem, /queue\/add/);
  });

  void it('the list names its conversation and may give text back', () => {
    const items = [{ id: 'q1', text: 't', createdAt: 1 }];
    assert.ok(hostMessageSchema.safeParse({ type: 'queue/list', conversationId: 'c1', items }).success);
    assert.ok(
      hostMessageSchema.safeParse({ type: 'queue/list', conversationId: 'c1', items: [], returned: 'x' }).success,
    );
  });

  void it("an ask_user answer is an option's index or the user's words", () => {
    assert.ok(parseWebviewMessage({ type: 'tools/answer', callId: 'c1', answer: { choice: 1 } }).ok);
    assert.ok(parseWebviewMessage({ type: 'tools/answer', callId: 'c1', answer: { text: 'mine' } }).ok);
    assert.equal(parseWebviewMessage({ type: 'tools/answer', callId: 'c1', answer: { choice: 1.5 } }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'tools/answer', callId: 'c1', answer: {} }).ok, false);
  });
});
