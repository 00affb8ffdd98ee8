// The wait between retries (src/api/transport/retry.ts): the server's retry-after first, else a doubling
// backoff with jitter. The retry loop itself is tested against the gateway in http.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../../../src/api/transport/errors';
import { retryDelayMs, sleep } from '../../../../src/api/transport/retry';

void describe('the wait before a retry', () => {
  void it('the backoff is 0.5 s doubling to at most 8 s, minus at most 25% jitter', () => {
    assert.equal(
      retryDelayMs(0, undefined, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(3, undefined, () => 0),
      4000,
    );
    assert.equal(
      retryDelayMs(10, undefined, () => 0),
      8000,
    );
    assert.equal(
      retryDelayMs(10, undefined, () => 1),
      6000,
    );
    for (let i = 0; i < 50; i++) {
      const d = retryDelayMs(1, undefined);
      assert.ok(d > 750 && d <= 1000, String(d));
    }
  });

  void it('retry-after as an HTTP date is honoured; beyond 60 s it is ignored in favour of backoff', () => {
    const soon = new Headers({ 'retry-after': new Date(Date.now() + 5000).toUTCString() });
    const d = retryDelayMs(0, soon, () => 0);
    assert.ok(d > 3000 && d <= 5000, String(d));
    assert.equal(
      retryDelayMs(0, new Headers({ 'retry-after': '120' }), () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(0, new Headers({ 'retry-after-ms': '-5' }), () => 0),
      500,
    );
  });

  void it('a stop during the wait ends it at once as aborted', async () => {
    const ctrl = new AbortController();
    const started = Date.now();
    const waiting = sleep(5000, ctrl.signal).catch((e: unknown) => e);
    ctrl.abort();
    const e = await waiting;
    assert.ok(e instanceof GatewayError && e.kind === 'aborted');
    assert.ok(Date.now() - started < 1000);
  });
});
