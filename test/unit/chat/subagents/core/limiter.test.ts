import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Limiter } from '../../../../../src/chat/subagents/core/limiter';

const tick = () => new Promise((r) => setTimeout(r, 5));

void describe('Limiter', () => {
  void it('runs at most the limit at once, the rest in turn', async () => {
    let max = 2;
    const l = new Limiter(() => max);
    let now = 0;
    let most = 0;
    const work = async () => {
      now++;
      most = Math.max(most, now);
      await tick();
      now--;
    };
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 6 }, () => l.run(signal, work)));
    assert.equal(most, 2);
    max = 0; // a bad setting still lets one run
    await l.run(signal, work);
    assert.equal(l.running, 0);
  });

  void it('a Stop while waiting ends the wait without running', async () => {
    const l = new Limiter(() => 1);
    const stop = new AbortController();
    let release!: () => void;
    const first = l.run(stop.signal, () => new Promise<void>((r) => (release = r)));
    let ran = false;
    const second = l.run(stop.signal, async () => {
      ran = true;
    });
    stop.abort();
    await assert.rejects(second, { name: 'AbortError' });
    release();
    await first;
    assert.equal(ran, false);
  });
});
