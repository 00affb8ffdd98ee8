// The video feature's words for a failure (src/video/jobs/core/errorText.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { failureText, notStartedText, taskError } from '../../../../../src/video/jobs/core/errorText';

void test("a task record keeps the failure's kind and status beside its words", () => {
  const e = taskError(new GatewayError('rate_limit', 'HTTP 429 from POST /v1/videos', { status: 429 }));
  assert.equal(e.kind, 'rate_limit');
  assert.equal(e.status, 429);
  assert.equal(e.title, 'Rate limited (429)');
  assert.equal(taskError(new Error('disk full')).kind, 'unexpected');
});

void test('the notice and the tool result say the same words; the tool says the task was not started', () => {
  const err = new GatewayError('image_fetch', 'cannot fetch https://x.invalid/a.png');
  assert.match(failureText(err), /^The gateway could not fetch a reference image\. .*direct HTTPS link/);
  assert.equal(notStartedText(err), `The video task was not started: ${failureText(err)}`);
});
