import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf, dayOf, decide, parseAllowance } from '../../../src/shared/agentAllowance';

// new-api's default: 500,000 quota a US dollar. A dollar relay shows dollars (500,000 quota a
// display unit); a yuan relay at 7.3 shows yuan (~68,493 quota a display unit).
const USD = { perUnit: 500_000, perUsd: 500_000 };
const CNY = { perUnit: 68_493, perUsd: 500_000 };
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

void test('without an allowance every billed agent action asks, whatever its price', () => {
  assert.equal(parseAllowance(undefined), 0);
  assert.equal(parseAllowance(-1), 0);
  assert.equal(parseAllowance('5'), 0);
  assert.equal(parseAllowance(Number.NaN), 0);
  assert.deepEqual(
    decide({ allowance: 0, stored: undefined, today: '2026-11-28', cost: costOf([{ quota: 5_000, ...USD }]) }),
    { ask: true, why: 'no-allowance', spent: 0 },
  );
});

void test('an unknown price always asks, even with an allowance', () => {
  assert.equal(costOf([{ quota: 400_000, ...USD }, undefined]), undefined);
  assert.equal(costOf([{ quota: 400_000 }]), undefined, 'a quote without its unit cannot be counted');
  assert.equal(costOf([{ quota: 400_000, perUnit: 500_000 }]), undefined, 'nor one without its quota per dollar');
  assert.equal(
    costOf([
      { quota: 1, ...USD },
      { quota: 1, ...CNY },
    ]),
    undefined,
    'nor clips billed in two units',
  );
  assert.equal(decide({ allowance: 10, stored: undefined, today: '2026-11-28', cost: undefined }).ask, true);
});

void test('within the daily allowance the action goes and is counted; the sum past it asks; a new day starts at 0', () => {
  const cost = costOf([
    { quota: 400_000, ...USD },
    { quota: 200_000, ...USD },
  ]);
  assert.ok(cost !== undefined && close(cost.usd, 1.2) && close(cost.rate, 1));
  const first = decide({ allowance: 2, stored: undefined, today: '2026-11-28', cost });
  assert.equal(first.ask, false);
  const stored = first.ask ? undefined : first.next;
  assert.ok(stored && close(stored.usd, 1.2));
  assert.ok(close(first.spent, 1.2));
  const second = decide({ allowance: 2, stored, today: '2026-11-28', cost });
  assert.equal(second.ask && second.why, 'over');
  assert.ok(close(second.spent, stored.usd));
  assert.equal(decide({ allowance: 2, stored, today: '2026-11-29', cost }).ask, false, 'yesterday counts for nothing');
  // A kept value that is not a figure counts as nothing spent, never as room to spend more.
  assert.equal(
    decide({
      allowance: 2,
      stored: { day: '2026-11-28', usd: -50 },
      today: '2026-11-28',
      cost: costOf([{ quota: 1_250_000, ...USD }]),
    }).ask,
    true,
  );
});

void test('spends through a yuan relay and a dollar relay add up as money, each checked in its own unit', () => {
  const today = '2026-11-28';
  // ¥7.30 through the yuan relay: one dollar.
  const yuan = costOf([{ quota: 500_000, ...CNY }]);
  assert.ok(yuan && close(yuan.usd, 1) && Math.abs(yuan.rate - 7.3) < 1e-3);
  const a = decide({ allowance: 10, stored: undefined, today, cost: yuan });
  assert.equal(a.ask, false, '¥7.30 within an allowance of 10 (yuan, on that relay)');
  assert.ok(!a.ask && close(a.next.usd, 1) && Math.abs(a.spent - 7.3) < 1e-3);
  const stored = a.ask ? undefined : a.next;
  // Before, the kept sum was 7.3 (display units): the dollar relay saw $7.30 spent and refused
  // $3. It is one dollar: $1 + $3 is within 10.
  const dollars = costOf([{ quota: 1_500_000, ...USD }]);
  const b = decide({ allowance: 10, stored, today, cost: dollars });
  assert.equal(b.ask, false);
  assert.ok(!b.ask && close(b.next.usd, 4) && close(b.spent, 4));
  // And the other way: $4 already spent is ¥29.20, past the yuan relay's 10 with any clip.
  const c = decide({ allowance: 10, stored: b.ask ? undefined : b.next, today, cost: costOf([{ quota: 1, ...CNY }]) });
  assert.equal(c.ask && c.why, 'over');
  assert.ok(Math.abs(c.spent - 29.2) < 1e-2);
});

void test('the day is the local calendar day', () => {
  assert.equal(dayOf(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
});
