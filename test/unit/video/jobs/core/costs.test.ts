// The clips' estimates and charges kept beside the task records: merged, bounded, hostile
// stored values dropped, and the card's lines (estimate beside the charge, the failed-but-charged flag).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COSTS_KEY, ClipCosts, MAX_COSTS, costLines } from '../../../../../src/video/jobs/core/costs';

function memory(initial: Record<string, unknown> = {}) {
  const m = new Map<string, unknown>(Object.entries(initial));
  return { get: (k: string) => m.get(k), update: (k: string, v: unknown) => Promise.resolve(void m.set(k, v)) };
}

void describe('ClipCosts', () => {
  void it('merges the estimate at submit with the charge at the end', async () => {
    const costs = new ClipCosts(memory());
    await costs.set('k1', { quoteLine: 'about ¥0.80: 4 s, 720p, m', estimate: '¥0.80' });
    await costs.set('k1', { charged: '¥0.80', source: 'log', failedCharged: false });
    assert.deepEqual(costs.get('k1'), {
      quoteLine: 'about ¥0.80: 4 s, 720p, m',
      estimate: '¥0.80',
      charged: '¥0.80',
      source: 'log',
    });
    await costs.remove('k1');
    assert.equal(costs.get('k1'), undefined);
  });

  void it('keeps at most MAX_COSTS entries, dropping the oldest', async () => {
    const costs = new ClipCosts(memory());
    for (let i = 0; i < MAX_COSTS + 5; i++) await costs.set(`k${i}`, { estimate: '$1.00' });
    assert.equal(costs.get('k0'), undefined);
    assert.equal(costs.get('k4'), undefined);
    assert.deepEqual(costs.get(`k${MAX_COSTS + 4}`), { estimate: '$1.00' });
  });

  void it('a stored value of the wrong shape is dropped, fields cut to size', () => {
    const costs = new ClipCosts(
      memory({
        [COSTS_KEY]: { a: 'x', b: { charged: 5, source: 'elsewhere', failedCharged: 'yes', estimate: 'y'.repeat(99) } },
      }),
    );
    assert.equal(costs.get('a'), undefined);
    assert.deepEqual(costs.get('b'), { estimate: 'y'.repeat(40) });
    assert.equal(new ClipCosts(memory({ [COSTS_KEY]: [1, 2] })).get('0'), undefined);
  });
});

void describe('costLines', () => {
  void it('estimate and charge side by side, with where the charge was read', () => {
    assert.deepEqual(costLines({ estimate: '¥0.80', charged: '¥0.80', source: 'log' }), {
      cost: "Estimate ¥0.80 · charged ¥0.80 (from the gateway's log)",
    });
    assert.deepEqual(costLines({ charged: '$0.10', source: 'balance' }), {
      cost: 'Estimate unknown · charged $0.10 (from the balance change)',
    });
    assert.deepEqual(costLines({ estimate: '$0.10' }), { cost: 'Estimate $0.10 · charge not reported yet' });
    assert.deepEqual(costLines({ quoteLine: 'Price unknown: no gateway is set up.' }), {
      cost: 'Price unknown: no gateway is set up.',
    });
    assert.deepEqual(costLines(undefined), {});
  });

  void it('a failed task that was charged gets a line of its own', () => {
    const l = costLines({ estimate: '¥0.80', charged: '¥0.80', source: 'log', failedCharged: true });
    assert.match(l.flag ?? '', /failed, yet the gateway charged ¥0\.80/);
    assert.equal(costLines({ failedCharged: true }).flag, undefined, 'no flag without a figure');
  });
});
