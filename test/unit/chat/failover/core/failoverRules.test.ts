// Which refusals fail over and how long a profile is skipped (src/chat/failover/core/failoverRules.ts),
// from errors as the client makes them out of the relays' documented shapes (test/gateway/relayErrors.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError, errorFromHttp } from '../../../../../src/api/transport/errors';
import { coolDownMs, failoverCause, isKeyRefusal } from '../../../../../src/chat/failover/core/failoverRules';
import { RELAY_ERRORS } from '../../../../gateway/relayErrors';

const ctx = { method: 'POST', path: '/v1/chat/completions' };
const http = (status: number, body: unknown, headers?: Headers) =>
  errorFromHttp(status, typeof body === 'string' ? body : JSON.stringify(body), {
    ...ctx,
    ...(headers ? { headers } : {}),
  });
const chat = { kind: 'chat' as const, started: false };
/** A connection error as undici reports it: "fetch failed" with the socket's code inside. */
function network(code: string): GatewayError {
  const socket = Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });
  return new GatewayError('network', 'Could not connect', { cause: new TypeError('fetch failed', { cause: socket }) });
}

void describe('failoverCause', () => {
  void it("fails over for each relay's quota and balance refusal, whatever its status", () => {
    const want: Record<keyof typeof RELAY_ERRORS, string> = {
      'new-api-user-quota': 'quota',
      'new-api-token-quota': 'quota',
      'new-api-token-exhausted': 'quota',
      'payment-required': 'payment',
      'openai-insufficient-quota': 'quota',
    };
    for (const [shape, e] of Object.entries(RELAY_ERRORS)) {
      assert.equal(failoverCause(http(e.status, e.body), chat), want[shape as keyof typeof RELAY_ERRORS], shape);
    }
  });

  void it('fails over for 429, 5xx and a connection refused or reset before headers', () => {
    assert.equal(
      failoverCause(http(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }), chat),
      'rate_limit',
    );
    for (const s of [500, 502, 503, 504])
      assert.equal(failoverCause(http(s, '<html>bad gateway</html>'), chat), 'server');
    for (const c of ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'])
      assert.equal(failoverCause(network(c), chat), 'connection', c);
  });

  void it('keeps the error for what another relay would refuse alike, for a stop, a DNS failure and a timeout', () => {
    for (const s of [400, 404, 413, 422])
      assert.equal(failoverCause(http(s, { error: { message: 'no' } }), chat), undefined);
    // A wrong key is the user's to fix on this profile: it is not hidden behind another's answer.
    assert.equal(failoverCause(http(401, { error: { message: 'Incorrect API key provided' } }), chat), undefined);
    assert.equal(failoverCause(new GatewayError('aborted', 'stopped'), chat), undefined);
    assert.equal(failoverCause(network('ENOTFOUND'), chat), undefined);
    assert.equal(
      failoverCause(new GatewayError('timeout', 'No answer within 60 s', { retryable: true }), chat),
      undefined,
    );
    assert.equal(failoverCause(new Error('not a gateway error'), chat), undefined);
  });

  void it('never after the first token, nor when the error carries an answer already shown', () => {
    const e = http(503, { error: { message: 'down' } });
    assert.equal(failoverCause(e, { kind: 'chat', started: true }), undefined);
    const partial = { message: { role: 'assistant' as const, content: 'Hel' } };
    assert.equal(failoverCause(new GatewayError('server', 'HTTP 503', { status: 503, partial }), chat), undefined);
    // An empty partial (the stream had said nothing yet) does not count as an answer.
    const empty = { message: { role: 'assistant' as const, content: '' } };
    assert.equal(
      failoverCause(new GatewayError('server', 'HTTP 503', { status: 503, partial: empty }), chat),
      'server',
    );
  });

  void it('never for a video or image creation, whatever the refusal', () => {
    const e = http(429, { error: { message: 'slow down' } });
    assert.equal(failoverCause(e, { kind: 'video', started: false }), undefined);
    assert.equal(failoverCause(e, { kind: 'image', started: false }), undefined);
    assert.equal(failoverCause(e, chat), 'rate_limit');
  });

  void it("a relay's quota refusal in a mid-stream error event before any token fails over", () => {
    const e = new GatewayError('stream', 'The gateway reported an error mid-stream: 用户额度不足', {
      code: 'insufficient_user_quota',
    });
    assert.equal(failoverCause(e, chat), 'quota');
  });
});

void describe('isKeyRefusal', () => {
  void it('is a 401 or 403 that is not a quota refusal', () => {
    assert.ok(isKeyRefusal(http(401, { error: { message: 'Incorrect API key provided' } })));
    assert.ok(isKeyRefusal(http(403, { error: { message: 'model not allowed for this group' } })));
    const exhausted = RELAY_ERRORS['new-api-token-exhausted'];
    assert.ok(!isKeyRefusal(http(exhausted.status, exhausted.body)));
    assert.ok(!isKeyRefusal(http(429, { error: { message: 'slow' } })));
  });
});

void describe('coolDownMs', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  void it('a rate limit waits for its retry-after, within 15 s and 10 min, else a minute', () => {
    const with429 = (h: Record<string, string>) => http(429, { error: { message: 'x' } }, new Headers(h));
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after': '120' }), now), 120_000);
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after-ms': '30000' }), now), 30_000);
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after': '1' }), now), 15_000);
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after': '86400' }), now), 600_000);
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after': 'Sat, 28 Nov 2026 12:03:00 GMT' }), now), 180_000);
    assert.equal(coolDownMs('rate_limit', with429({}), now), 60_000);
    assert.equal(coolDownMs('rate_limit', with429({ 'retry-after': 'soon' }), now), 60_000);
  });

  void it('an empty balance, a quota and a refused key for 10 minutes; a server or connection error for one', () => {
    const e = new Error('x');
    assert.deepEqual(
      (['quota', 'payment', 'key', 'server', 'connection'] as const).map((c) => coolDownMs(c, e, now)),
      [600_000, 600_000, 600_000, 60_000, 60_000],
    );
  });
});
