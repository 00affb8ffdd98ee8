// The failure vocabulary the client and its audiences share (src/contracts/gatewayError.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../../src/api/transport/errors';
import { isGatewayFailure, notFoundCause } from '../../../src/contracts/gatewayError';

void test("the client's errors are recognised by their facts; other errors are not", () => {
  const err = new GatewayError('server', 'HTTP 502', { status: 502, requestId: 'req-1' });
  assert.equal(isGatewayFailure(err), true);
  assert.equal(isGatewayFailure(new Error('boom')), false);
  assert.equal(isGatewayFailure({ name: 'GatewayError', kind: 'server' }), false, 'only an Error');
});

void test('a 404 on a video id is blamed on the id, on the model list on the address', () => {
  assert.equal(notFoundCause({ message: 'not found', path: '/v1/videos/abc' }), 'id');
  assert.equal(notFoundCause({ message: 'not found', path: '/v1/models' }), 'baseUrl');
  assert.equal(
    notFoundCause({ message: 'model gw-x does not exist', code: 'model_not_found', path: '/v1/chat/completions' }),
    'model',
  );
});
