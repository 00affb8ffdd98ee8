// A chat request to a route the gateway does not have (a base URL without /v1 on a server that
// answers unknown routes with its error object, "Invalid URL (POST /…)") is blamed on the base
// URL, not on the model: the error object alone made it look like a model problem.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import { describeError, notFoundCause } from '../../src/api/errors';
import { gatewayFailure, useGateway } from './helpers';

const gw = useGateway();

void it('a chat POST to a path the gateway does not serve names the base URL as the likelier cause', async () => {
  const client = new GatewayClient({ baseUrl: `${gw.url}/api`, apiKey: gw.keys.valid, maxRetries: 0 });
  const err = await gatewayFailure(client.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] }));
  assert.equal(err.status, 404);
  assert.ok(err.type || err.code, 'the gateway answered with its error object, as many servers do');
  assert.match(err.message, /Invalid URL/);
  assert.equal(notFoundCause(err), 'baseUrl');
  assert.match(describeError(err).detail, /base URL is the likelier cause/);
});

void it('a model the gateway does not know is still blamed on the model', async () => {
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const err = await gatewayFailure(client.chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }));
  assert.equal(notFoundCause(err), 'model');
});
