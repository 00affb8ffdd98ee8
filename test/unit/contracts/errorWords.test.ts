// The words for the gateway client's failures (src/contracts/errorWords.ts): the client throws
// facts, and this is the one place they become a title, a detail, the advice and the actions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../../src/api/transport/errors';
import { describeError, errorHint } from '../../../src/contracts/errorWords';

void describe('describeError is the one place errors become user text', () => {
  void it('image-fetch errors say to use a direct link or base64', () => {
    const d = describeError(new GatewayError('image_fetch', 'cannot fetch https://x.invalid/a.png'));
    assert.match(d.detail, /direct HTTPS link/);
    assert.match(d.detail, /base64/);
  });

  void it('a non-gateway error is shown redacted with Show Log', () => {
    const d = describeError(new Error('boom Bearer sk-abcdefghijklmnop'));
    assert.ok(!d.detail.includes('sk-abcdefghijklmnop'));
    assert.deepEqual(d.actions, ['showLog']);
  });
});

void describe('the client says what it knows as data; the words say what to do', () => {
  void it("a thrower's advice is a code on the error, worded here", () => {
    const err = new GatewayError('timeout', 'nothing for 120 s', {
      path: '/v1/chat/completions',
      advice: 'raiseIdleTimeout',
    });
    assert.equal(err.advice, 'raiseIdleTimeout');
    assert.ok(!('hint' in err), 'no advice sentence on the error');
    assert.match(errorHint(err), /streamIdleTimeoutSeconds/);
  });

  void it('without advice, the kind decides the hint (a rate limit still limited after retries names them)', () => {
    assert.match(errorHint(new GatewayError('network', 'ECONNREFUSED')), /proxy settings/);
    const limited = new GatewayError('rate_limit', 'HTTP 429', { status: 429, retries: 2, advice: 'stillRateLimited' });
    assert.match(errorHint(limited), /after 2 retries/);
  });
});
