import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { windowRequest, windowTarget, windowVerdict } from '../../../../../src/account/checkup/core/windowProbe';

const usage = (prompt_tokens: number) => ({ prompt_tokens, completion_tokens: 1, total_tokens: prompt_tokens + 1 });

void describe('window probe', () => {
  void it('sends a prompt just under the window, one answer token', () => {
    const r = windowRequest('m', 8192);
    assert.equal(r.max_tokens, 1);
    const text = r.messages[0]!.content as string;
    // " the" is one token a word: the prompt is the target less the template allowance.
    assert.equal(text.split(' the').length - 1, windowTarget(8192) - 16);
    assert.ok(windowTarget(8192) < 8192 - 32);
  });

  void it('accepted whole: ok', () => {
    assert.equal(windowVerdict(8192, { usage: usage(windowTarget(8192) - 3) }).verdict, 'ok');
  });

  void it('a 200 that counted far less: a silent truncation', () => {
    const v = windowVerdict(8192, { usage: usage(4096) });
    assert.equal(v.verdict, 'problem');
    assert.match(v.summary, /counted only 4096/);
  });

  void it('an overflow refusal: the window is smaller, with the stated one', () => {
    const err = new GatewayError(
      'server',
      "This model's maximum context length is 4096 tokens. However, your messages resulted in 8000 tokens.",
      {
        status: 400,
        code: 'context_length_exceeded',
        type: 'invalid_request_error',
      },
    );
    const v = windowVerdict(8192, { error: err });
    assert.equal(v.verdict, 'problem');
    assert.equal(v.figures.stated, 4096);
  });

  void it('another refusal is shown as one; no usage cannot tell', () => {
    const v = windowVerdict(8192, { error: new GatewayError('server', 'insufficient balance', { status: 403 }) });
    assert.equal(v.verdict, 'refused');
    assert.match(v.summary, /insufficient balance/);
    assert.equal(windowVerdict(8192, { usage: undefined }).verdict, 'cannot-tell');
  });
});
