// A clip's quote before the submit (and the confirmAbove limit), and the charge read from the
// gateway's log: rows that name the task, refunds, hostile rows, and the failed-but-charged flag.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import type { ModelPrice } from '../../../../../src/account/pricing/core/pricing';
import { chargeFromLog, failedButCharged, quoteClip } from '../../../../../src/account/spend/core/videoCharge';

const CNY = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 8 });
// $0.025 per second at 500000 quota per dollar.
const perSecond: ModelPrice = { model: 'vendor-image-video', source: 'gateway', perCall: 12_500 };

void describe('quoteClip', () => {
  void it('seconds × price, in the unit, with the line the confirmations show', () => {
    const q = quoteClip({ model: 'vendor-image-video', seconds: 4, resolution: '720p' }, perSecond, CNY, 0);
    assert.deepEqual(q, {
      ok: true,
      quote: { quota: 50_000, amount: '¥0.80', line: 'about ¥0.80: 4 s, 720p, vendor-image-video' },
    });
  });

  void it('above confirmAbove names the limit; at or below it does not', () => {
    const above = quoteClip({ model: 'vendor-image-video', seconds: 4 }, perSecond, CNY, 0.5);
    assert.equal(above.ok && above.quote.above, '¥0.50');
    const at = quoteClip({ model: 'vendor-image-video', seconds: 4 }, perSecond, CNY, 0.8);
    assert.equal(at.ok && at.quote.above, undefined);
    const never = quoteClip({ model: 'vendor-image-video', seconds: 15 }, perSecond, USD, 0);
    assert.equal(never.ok && never.quote.above, undefined);
  });

  void it('no price or no duration: a plain sentence, no figure', () => {
    const none = quoteClip({ model: 'x-video', seconds: 4 }, undefined, USD, 1);
    assert.equal(none.ok, false);
    assert.match(!none.ok ? none.why : '', /Price unknown: .*x-video.*gatewayStudio\.spend\.prices/);
    const noSeconds = quoteClip({ model: 'vendor-image-video' }, perSecond, USD, 0);
    assert.match(!noSeconds.ok ? noSeconds.why : '', /Price unknown: the duration/);
  });
});

const row = (o: Record<string, unknown>) => ({ id: 1, model_name: 'vendor-image-video', type: 2, ...o });

void describe('chargeFromLog', () => {
  void it("sums the rows that name the task (other.task_id as new-api's JSON string, an object, or content) minus refunds", () => {
    const body = {
      success: true,
      data: [
        row({ quota: 50_000, other: JSON.stringify({ task_id: 'video_svc_v1_a' }) }),
        row({ quota: 7, other: JSON.stringify({ task_id: 'video_svc_v1_b' }) }),
        row({ quota: 100, other: { task_id: 'video_svc_v1_a' } }),
        row({ quota: 1, content: 'task video_svc_v1_a extra', other: '' }),
        row({ quota: 30_000, type: 6, other: JSON.stringify({ task_id: 'video_svc_v1_a' }) }),
      ],
    };
    assert.deepEqual(chargeFromLog(body, 'video_svc_v1_a'), { kind: 'charge', quota: 20_101, rows: 4 });
    assert.deepEqual(chargeFromLog({ success: true, data: { items: body.data } }, 'video_svc_v1_b'), {
      kind: 'charge',
      quota: 7,
      rows: 1,
    });
  });

  void it('a refund of the whole charge nets to zero, never below', () => {
    const body = {
      data: [
        row({ quota: 50, other: '{"task_id":"video_svc_v1_z"}' }),
        row({ quota: 80, type: 6, other: '{"task_id":"video_svc_v1_z"}' }),
      ],
    };
    assert.deepEqual(chargeFromLog(body, 'video_svc_v1_z'), { kind: 'charge', quota: 0, rows: 2 });
  });

  void it('no row for the task, an error body, or a hostile log: no figure', () => {
    assert.deepEqual(chargeFromLog({ success: true, data: [row({ quota: 5, other: '{}' })] }, 'video_svc_v1_a'), {
      kind: 'no-row',
    });
    assert.equal(chargeFromLog({ success: false, message: 'token lookup failed' }, 'video_svc_v1_a').kind, 'unusable');
    assert.equal(chargeFromLog('<html>', 'video_svc_v1_a').kind, 'unusable');
    const hostile = {
      data: [
        row({ quota: -5, other: '{"task_id":"video_svc_v1_a"}' }),
        row({ quota: Number.NaN, other: '{"task_id":"video_svc_v1_a"}' }),
        row({ quota: '9', other: '{"task_id":"video_svc_v1_a"}' }),
        row({ quota: 1e30, other: '{"task_id":"video_svc_v1_a"}' }),
        row({ quota: 3, type: 4, other: '{"task_id":"video_svc_v1_a"}' }),
        row({ quota: 3, other: 'not json' }),
        null,
        'row',
      ],
    };
    assert.deepEqual(chargeFromLog(hostile, 'video_svc_v1_a'), { kind: 'no-row' });
    // A short id does not match by content (it could be part of anything).
    assert.deepEqual(chargeFromLog({ data: [row({ quota: 3, content: 'abc' })] }, 'abc'), { kind: 'no-row' });
  });
});

void describe('failedButCharged', () => {
  void it('only a failed end with a charge above zero', () => {
    assert.equal(failedButCharged('failed', 1), true);
    assert.equal(failedButCharged('failed', 0), false);
    assert.equal(failedButCharged('saved', 50), false);
    assert.equal(failedButCharged('error', 50), false);
  });
});
