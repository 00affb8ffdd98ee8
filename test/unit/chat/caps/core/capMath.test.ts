// The arithmetic of spend caps, and the bound the gate promises: a cap is never exceeded by more
// than one request's estimate error (what a request actually cost beyond the estimate of its
// prompt), checked over random tool loops with random estimate errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capBreach,
  continueUpTo,
  displayToQuota,
  quotaToDisplay,
  readCap,
  stepCost,
} from '../../../../../src/chat/caps/core/capMath';

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;
const CNY = { kind: 'CNY', quotaPerUnit: 500_000, rateMicro: 7_300_000, symbol: '¥' } as const;
const TOKENS = { kind: 'TOKENS', quotaPerUnit: 1, rateMicro: 1, symbol: '' } as const;

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

void describe('spend caps: arithmetic', () => {
  void it('passes a step whose prompt fits, and pauses the first scope it would pass, the turn first', () => {
    const step = { prompt: 30, atMost: 80 };
    assert.equal(capBreach({ turn: 100, conversation: 1000 }, { turn: 70, conversation: 500 }, step), undefined);
    assert.deepEqual(capBreach({ turn: 100, conversation: 1000 }, { turn: 71, conversation: 980 }, step), {
      kind: 'turn',
      spent: 71,
      cap: 100,
      prompt: 30,
      atMost: 80,
      upTo: 171,
    });
    assert.equal(capBreach({ conversation: 1000 }, { turn: 71, conversation: 980 }, step)?.kind, 'conversation');
    assert.equal(capBreach({ daily: 10 }, { daily: 0 }, { prompt: 11, atMost: 11 })?.kind, 'daily');
    assert.equal(capBreach({}, { turn: 1e9 }, step), undefined, 'no cap, no pause');
  });

  void it('Continue offers another cap’s worth from what was spent, and at least room for this step', () => {
    assert.equal(continueUpTo(90, 100, { prompt: 20, atMost: 40 }), 190);
    assert.equal(continueUpTo(90, 100, { prompt: 20, atMost: 400 }), 490);
    assert.equal(continueUpTo(0, 10, { prompt: 50, atMost: 50 }), 50);
  });

  void it('prices a step per token (answer at the output price) or per call', () => {
    assert.deepEqual(stepCost({ prompt: 1000, maxAnswer: 100 }, { input: 2, output: 6 }), {
      prompt: 2000,
      atMost: 2600,
    });
    assert.deepEqual(stepCost({ prompt: 1000, maxAnswer: 100 }, { input: 2 }), { prompt: 2000, atMost: 2200 });
    assert.deepEqual(stepCost({ prompt: 3, maxAnswer: 3 }, { input: 0.1, output: 0.1 }), { prompt: 1, atMost: 2 });
    assert.deepEqual(stepCost({ prompt: 1000, maxAnswer: 100 }, { input: 0, output: 0, perCall: 5000 }), {
      prompt: 5000,
      atMost: 5000,
    });
    assert.deepEqual(stepCost({ prompt: -5, maxAnswer: -1 }, { input: 1 }), { prompt: 0, atMost: 0 });
  });

  void it('turns display figures into quota and back, never rounding a raised cap down', () => {
    assert.equal(displayToQuota(0.1, USD), 50_000);
    assert.equal(displayToQuota(7.3, CNY), 500_000);
    assert.equal(displayToQuota(1234, TOKENS), 1234);
    assert.equal(quotaToDisplay(50_000, USD), 0.1);
    assert.ok(quotaToDisplay(1, CNY) * 500_000 >= 7.3 - 1e-9, 'rounded up');
    assert.ok(displayToQuota(quotaToDisplay(123_457, CNY), CNY) >= 123_457);
  });

  void it('reads a cap: unset is none; 0, a negative number, NaN or text is a problem to say', () => {
    assert.deepEqual(readCap(undefined), { ok: true });
    assert.deepEqual(readCap(null), { ok: true });
    assert.deepEqual(readCap(''), { ok: true });
    assert.deepEqual(readCap(0.1), { ok: true, cap: 0.1 });
    assert.deepEqual(readCap(0), { ok: false, problem: 'not-positive' });
    assert.deepEqual(readCap(-3), { ok: false, problem: 'not-positive' });
    assert.deepEqual(readCap(Number.NaN), { ok: false, problem: 'not-a-number' });
    assert.deepEqual(readCap(Infinity), { ok: false, problem: 'not-a-number' });
    assert.deepEqual(readCap('0.1'), { ok: false, problem: 'not-a-number' });
  });

  void it('the bound: over random loops a cap is passed by at most the last request’s estimate error', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rnd = random(seed);
      const cap = 1 + Math.floor(rnd() * 5000);
      let spent = 0;
      let before = 0;
      let lastPrompt = 0;
      let lastError = 0;
      for (let i = 0; i < 200; i++) {
        // The prompt grows with the loop, as tool results pile up; the estimate may miss either way.
        const prompt = Math.floor(10 + i * rnd() * 20);
        const step = { prompt, atMost: prompt + Math.floor(rnd() * 200) };
        if (capBreach({ turn: cap }, { turn: spent }, step)) break;
        const actualPrompt = Math.max(0, Math.round(prompt * (0.8 + rnd() * 0.4)));
        const actual = actualPrompt + Math.floor(rnd() * (step.atMost - prompt + 1));
        before = spent;
        spent += actual;
        lastPrompt = prompt;
        lastError = actual - prompt;
      }
      assert.ok(
        spent <= cap + Math.max(0, lastError),
        `seed ${seed}: spent ${spent}, cap ${cap}, last error ${lastError}`,
      );
      // Every request was sent with room for its estimate: only the last one can have crossed.
      assert.ok(before + lastPrompt <= cap, `seed ${seed}: sent past the cap by its estimate alone`);
    }
  });
});
