// The profiles skipped for a while (src/chat/failover/core/coolDowns.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoolDowns, saidOf, type CoolDown } from '../../../../../src/chat/failover/core/coolDowns';

function store(initial: Record<string, CoolDown> = {}) {
  const saved: Record<string, CoolDown>[] = [];
  return { saved, load: () => initial, save: (all: Record<string, CoolDown>) => void saved.push(all) };
}

void describe('CoolDowns', () => {
  void it('a started cool-down lasts its time, is written through, and ends by itself', () => {
    let now = 1_000;
    const s = store();
    const c = new CoolDowns(s, () => now);
    c.start('a', 'rate_limit', 'HTTP 429', 60_000);
    assert.deepEqual(c.active('a'), { until: 61_000, cause: 'rate_limit', said: 'HTTP 429' });
    assert.deepEqual(s.saved.at(-1), { a: { until: 61_000, cause: 'rate_limit', said: 'HTTP 429' } });
    now = 61_000;
    assert.equal(c.active('a'), undefined);
  });

  void it('reads what an earlier window stored, drops ended ones on the next write, and clears one that answered', () => {
    const now = 10_000;
    const s = store({
      old: { until: 5_000, cause: 'server', said: 'x' },
      b: { until: 20_000, cause: 'quota', said: 'y' },
    });
    const c = new CoolDowns(s, () => now);
    assert.equal(c.active('old'), undefined);
    assert.equal(c.active('b')?.cause, 'quota');
    c.start('a', 'server', 'HTTP 503', 1_000);
    assert.deepEqual(Object.keys(s.saved.at(-1)!).sort(), ['a', 'b']);
    c.clear('b');
    assert.deepEqual(Object.keys(s.saved.at(-1)!), ['a']);
    const writes = s.saved.length;
    c.clear('never-there');
    assert.equal(s.saved.length, writes, 'nothing to clear writes nothing');
    assert.equal(c.active('__proto__'), undefined);
  });

  void it('keeps what a relay said redacted, on one line, at most 300 characters', () => {
    assert.equal(
      saidOf('bad key sk-abcdefghijklmnopqrstuvwxyz0123\nsecond line').includes('sk-abcdefghijklmnopqrstuvwxyz0123'),
      false,
    );
    assert.doesNotMatch(saidOf('a\nb'), /\n/);
    assert.equal(saidOf('x'.repeat(1000)).length, 300);
  });
});
