import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf, dayOf, decide, parseAllowance } from '../../../src/shared/agentAllowance';

void test('without an allowance every billed agent action asks, whatever its price', () => {
  assert.equal(parseAllowance(undefined), 0);
  assert.equal(parseAllowance(-1), 0);
  assert.equal(parseAllowance('5'), 0);
  assert.equal(parseAllowance(Number.NaN), 0);
  assert.deepEqual(decide({ allowance: 0, stored: undefined, today: '2026-11-28', cost: 0.01 }), {
    ask: true,
    why: 'no-allowance',
    spent: 0,
  });
});

void test('an unknown price always asks, even with an allowance', () => {
  assert.equal(costOf([{ quota: 400_000, perUnit: 500_000 }, undefined]), undefined);
  assert.equal(costOf([{ quota: 400_000 }]), undefined, 'a quote without its unit cannot be counted');
  assert.equal(decide({ allowance: 10, stored: undefined, today: '2026-11-28', cost: undefined }).ask, true);
});

void test('within the daily allowance the action goes and is counted; the sum past it asks; a new day starts at 0', () => {
  const cost = costOf([
    { quota: 400_000, perUnit: 500_000 },
    { quota: 200_000, perUnit: 500_000 },
  ]);
  assert.ok(cost !== undefined && Math.abs(cost - 1.2) < 1e-9);
  const first = decide({ allowance: 2, stored: undefined, today: '2026-11-28', cost });
  assert.equal(first.ask, false);
  const stored = first.ask ? undefined : first.next;
  assert.ok(stored && Math.abs(stored.spent - 1.2) < 1e-9);
  const second = decide({ allowance: 2, stored, today: '2026-11-28', cost });
  assert.deepEqual(second, { ask: true, why: 'over', spent: stored.spent });
  assert.equal(decide({ allowance: 2, stored, today: '2026-11-29', cost }).ask, false, 'yesterday counts for nothing');
  // A kept value that is not a figure counts as nothing spent, never as room to spend more.
  assert.equal(
    decide({ allowance: 2, stored: { day: '2026-11-28', spent: -50 }, today: '2026-11-28', cost: 2.5 }).ask,
    true,
  );
});

void test('the day is the local calendar day', () => {
  assert.equal(dayOf(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
});
