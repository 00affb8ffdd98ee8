import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage, ToolCallUpdate } from '../../../../../src/shared/protocol';
import { openSession } from '../../../../support/sessionHarness';

/**
 * Tool cards and the conversation shown (src/chat/session/core/toolCards.ts, through the session):
 * a card update names its conversation, and one for a conversation the user has left reaches no
 * view. No request is made, so the gateway address is never used.
 */

const nowhere = { url: 'http://127.0.0.1:9', keys: { valid: 'unused' } };

function card(conversationId: string, state: ToolCallUpdate['state']): ToolCallUpdate & { conversationId: string } {
  return { conversationId, callId: 'call_0', name: 'read_file', argumentsJson: '{}', state, readOnly: true };
}

const cardsIn = (msgs: HostMessage[]) =>
  msgs.flatMap((m) => (m.type === 'tools/call' ? [`${m.update.callId}: ${m.update.state}`] : []));

void test("a late card from the conversation the user left (its turn stopped) neither shows in the new one nor replaces the new one's card of the same call id", () => {
  const h = openSession(nowhere);
  const left = h.session.conversationId;
  h.session.postToolCall(card(left, 'running'));
  h.session.newChat();
  const shown = h.session.conversationId;
  assert.notEqual(shown, left);
  h.session.postToolCall(card(shown, 'awaiting-approval'));
  h.received.length = 0;

  // The old turn was stopped by the switch; its runner reports the call as ended afterwards.
  h.session.postToolCall(card(left, 'error'));

  assert.deepEqual(cardsIn(h.received), [], 'the late card was posted to the views');
  assert.deepEqual(
    cardsIn(h.session.cardMessages()),
    ['call_0: awaiting-approval'],
    'a reloaded view would get the other conversation card in place of its own',
  );
  h.session.dispose();
});

void test('a card of the conversation shown reaches the views and is replayed to a reloaded one', () => {
  const h = openSession(nowhere);
  h.session.postToolCall(card(h.session.conversationId, 'running'));
  h.session.postToolCall(card(h.session.conversationId, 'done'));
  assert.deepEqual(cardsIn(h.received), ['call_0: running', 'call_0: done']);
  assert.deepEqual(cardsIn(h.session.cardMessages()), ['call_0: done']);
  h.session.dispose();
});
