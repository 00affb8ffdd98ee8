// The cost the chat stores on an answer: whole quota units and a sane unit, or it is not taken
// (a damaged or edited history cannot put a fractional, negative or absurd figure on screen).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerCostSchema, assistantMessageSchema } from '../../../../src/shared/protocol';

const unit = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' };

void describe('answerCostSchema', () => {
  void it('takes whole quota units, or no figure with the estimate mark', () => {
    assert.ok(answerCostSchema.safeParse({ quota: 615, unit, estimate: false }).success);
    assert.ok(answerCostSchema.safeParse({ unit, estimate: true, reason: 'no-price' }).success);
  });

  void it('refuses fractions, negatives, absurd figures and units', () => {
    for (const bad of [
      { quota: 1.5, unit, estimate: false },
      { quota: -1, unit, estimate: false },
      { quota: 1e16, unit, estimate: false },
      { quota: 1, unit: { ...unit, quotaPerUnit: 0 }, estimate: false },
      { quota: 1, unit: { ...unit, kind: 'EUR' }, estimate: false },
      { quota: 1, unit: { ...unit, symbol: 'x'.repeat(100) }, estimate: false },
      { quota: 1, unit, estimate: false, reason: 'because' },
    ])
      assert.equal(answerCostSchema.safeParse(bad).success, false, JSON.stringify(bad));
  });

  void it('an answer keeps its cost through the schema a saved conversation is read with', () => {
    const m = {
      id: 'a1',
      role: 'assistant',
      content: 'x',
      status: 'done',
      requestedModel: 'gw-chat',
      cost: { quota: 3, unit, estimate: false },
      createdAt: 1,
    };
    const r = assistantMessageSchema.safeParse(m);
    assert.ok(r.success);
    assert.deepEqual(r.data.cost, m.cost);
  });
});
