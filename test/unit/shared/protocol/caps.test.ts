// The spend caps' messages: what the host accepts from the page, and the conversation's own caps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conversationSchema, parseWebviewMessage, hostMessageSchema } from '../../../../src/shared/protocol';

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;

void describe('protocol: spend caps', () => {
  void it('takes any finite cap from the gear panel, so the host can say what is wrong with a 0 or a negative one', () => {
    for (const v of [0, -1, 0.1, null]) {
      const r = parseWebviewMessage({ type: 'caps/set', turn: v, conversation: null });
      assert.ok(r.ok, JSON.stringify(r));
    }
    assert.equal(parseWebviewMessage({ type: 'caps/set', turn: 'lots', conversation: null }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'caps/set', turn: 1e300, conversation: null }).ok, false);
    assert.ok(parseWebviewMessage({ type: 'caps/decide', id: 'cap1', decision: 'stop' }).ok);
    assert.equal(parseWebviewMessage({ type: 'caps/decide', id: 'cap1', decision: 'maybe' }).ok, false);
  });

  void it('keeps a stored conversation whose own cap is 0 (said when used, not a reason to drop it)', () => {
    const c = { id: 'c1', title: 't', createdAt: 1, updatedAt: 1, model: '', params: {}, messages: [] };
    assert.ok(conversationSchema.safeParse({ ...c, caps: { turn: 0, conversation: 2 } }).success);
    assert.ok(conversationSchema.safeParse(c).success, 'absent: the settings');
  });

  void it('a pause names its figures with their unit', () => {
    const pause = { id: 'cap1', kind: 'turn', spent: 1, cap: 2, prompt: 3, atMost: 4, upTo: 5, unit: USD, model: 'm' };
    assert.ok(hostMessageSchema.safeParse({ type: 'caps/pause', pause }).success);
    assert.equal(
      hostMessageSchema.safeParse({ type: 'caps/pause', pause: { ...pause, unit: undefined } }).success,
      false,
    );
    assert.ok(hostMessageSchema.safeParse({ type: 'caps/price' }).success);
  });
});
