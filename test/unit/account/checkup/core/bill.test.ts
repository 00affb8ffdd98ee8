import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billVerdict, chargesSince, lastLogId, tokensOf } from '../../../../../src/account/checkup/core/bill';

const log = {
  success: true,
  data: [
    { id: 12, created_at: 2000, model_name: 'm', quota: 300, type: 2 },
    { id: 11, created_at: 2000, model_name: 'other', quota: 999, type: 2 },
    { id: 10, created_at: 2000, model_name: 'm', quota: 50, type: 6 },
    { id: 9, created_at: 1000, model_name: 'm', quota: 7777, type: 2 },
    { id: 13, created_at: 2000, model_name: 'm', quota: 'lots', type: 2 },
    { id: 14, created_at: 2000, model_name: 'm', quota: -5, type: 2 },
  ],
};

void describe('bill probe', () => {
  void it('sums the model rows written since the check-up began, refunds subtracted, bad figures skipped', () => {
    assert.equal(lastLogId(log), 14);
    assert.deepEqual(chargesSince(log, { model: 'm', afterId: 9, sinceSec: 1500 }), { quota: 250, rows: 2 });
    // Without a log read before, time alone tells the old rows.
    assert.deepEqual(chargesSince(log, { model: 'm', afterId: 0, sinceSec: 1500 }), { quota: 250, rows: 2 });
    assert.deepEqual(chargesSince({ success: false, message: 'no' }, { model: 'm', afterId: 0, sinceSec: 0 }), {
      why: 'answered an error: no',
    });
  });

  void it('the multiplier: at price, above it, below it', () => {
    assert.equal(billVerdict({ expectedQuota: 1000, charged: { quota: 1020, rows: 3 } }).verdict, 'ok');
    const high = billVerdict({ expectedQuota: 1000, charged: { quota: 1500, rows: 3 } });
    assert.equal(high.verdict, 'problem');
    assert.equal(high.figures.multiplier, 1.5);
    assert.match(
      billVerdict({ expectedQuota: 1000, charged: { quota: 500, rows: 3 } }).summary,
      /less than advertised/,
    );
  });

  void it('cannot tell without a price, a log, or a row', () => {
    assert.equal(billVerdict({ charged: { quota: 1, rows: 1 } }).verdict, 'cannot-tell');
    assert.match(billVerdict({ expectedQuota: 5, charged: { why: 'HTTP 404' } }).summary, /HTTP 404/);
    assert.equal(billVerdict({ expectedQuota: 5, charged: { quota: 0, rows: 0 } }).verdict, 'cannot-tell');
  });

  void it('failed video tasks still charged make the bill a problem, named with their charge, beside the multiplier', () => {
    const failedVideo = { tasks: 2, quota: 800_000, amount: '$1.60', models: ['vendor-image-video'] };
    const ok = billVerdict({ expectedQuota: 1000, charged: { quota: 1000, rows: 3 }, failedVideo });
    assert.equal(ok.verdict, 'problem');
    assert.match(ok.summary, /Failed video tasks still charged: 2 \(\$1\.60; vendor-image-video\)/);
    assert.match(ok.evidence.join('\n'), /Billed at the advertised price \(1\.00×\)/);
    assert.equal(ok.figures.failedVideoTasks, 2);
    assert.equal(ok.figures.multiplier, 1);
    const both = billVerdict({ expectedQuota: 1000, charged: { quota: 1500, rows: 3 }, failedVideo });
    assert.match(both.summary, /^Billed 1\.50× the advertised price\. Failed video tasks still charged: 2/);
    // Even when the probes' charge cannot be told, the failed tasks are named.
    assert.match(billVerdict({ failedVideo }).summary, /Failed video tasks still charged/);
    // None kept: the verdict is the multiplier's alone.
    const none = billVerdict({
      expectedQuota: 1000,
      charged: { quota: 1000, rows: 3 },
      failedVideo: { ...failedVideo, tasks: 0 },
    });
    assert.equal(none.verdict, 'ok');
  });

  void it('reads tokens defensively', () => {
    assert.deepEqual(tokensOf(undefined), { prompt: 0, completion: 0 });
    assert.deepEqual(tokensOf({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }), {
      prompt: 3,
      completion: 2,
    });
  });
});
