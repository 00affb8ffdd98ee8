import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SideSpend } from '../../../../../src/chat/caps/core/sideSpend';

const usd = { kind: 'USD', quotaPerUnit: 500000, rateMicro: 1000000, symbol: '$' } as const;
const cny = { kind: 'CNY', quotaPerUnit: 500000, rateMicro: 7000000, symbol: '¥' } as const;

void describe('SideSpend', () => {
  void it("counts what is added for a conversation after a turn began, in the turn's unit only", () => {
    const side = new SideSpend();
    side.add('c1', { quota: 50, unit: usd });
    const turn = side.from('c1');
    assert.equal(turn(usd), 0, 'what came before the turn is not its');
    side.add('c1', { quota: 120, unit: usd });
    side.add('c1', { quota: 7, unit: cny });
    side.add('c2', { quota: 999, unit: usd });
    assert.equal(turn(usd), 120);
    assert.equal(turn(cny), 7);
    side.forget('c1');
    assert.equal(side.from('c1')(usd), 0);
  });
});
