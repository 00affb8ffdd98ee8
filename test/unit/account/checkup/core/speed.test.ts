import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { speedRequest, speedVerdict } from '../../../../../src/account/checkup/core/speed';

void describe('speed probe', () => {
  void it('streams a short answer', () => {
    assert.equal(speedRequest('m').stream, true);
  });

  void it('medians of time to first token and tokens per second', () => {
    const v = speedVerdict([
      { startedAt: 0, firstTextAt: 200, endedAt: 1200, completionTokens: 48, textEvents: 40 },
      { startedAt: 0, firstTextAt: 400, endedAt: 1400, completionTokens: 24, textEvents: 20 },
    ]);
    assert.equal(v.verdict, 'ok');
    assert.equal(v.figures.ttftMs, 300);
    assert.equal(v.figures.tokensPerSecond, 36);
  });

  void it('no text: cannot tell; failed streams: refused, with the reason', () => {
    assert.equal(speedVerdict([{ startedAt: 0, endedAt: 5, textEvents: 0 }]).verdict, 'cannot-tell');
    const v = speedVerdict([], ['HTTP 429']);
    assert.equal(v.verdict, 'refused');
    assert.match(v.evidence[0]!, /HTTP 429/);
  });
});
