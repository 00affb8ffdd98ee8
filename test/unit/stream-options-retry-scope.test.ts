// The streamed chat's one retry without stream_options is for a refusal of stream_options only: a
// 400 that names another field would fail the same way again, so it is not sent a second time.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import { gatewayFailure, useGateway } from './helpers';

const gw = useGateway();
const CHAT = 'POST /v1/chat/completions';
const TOOL = { type: 'function' as const, function: { name: 'read_file', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } };

const client = (): GatewayClient => new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });

void it('a 400 naming tool_choice is reported after one request, not sent again without stream_options', async () => {
  gw.fault({ rejectRequiredToolChoice: 400, times: -1 });
  const err = await gatewayFailure(client().streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }], tools: [TOOL, { ...TOOL, function: { ...TOOL.function, name: 'list_directory' } }], tool_choice: 'required' }));
  assert.equal(err.status, 400);
  assert.equal(err.param, 'tool_choice');
  assert.equal(gw.counts()[CHAT], 1, 'one request');
});

void it('a 400 naming stream_options is still answered by one request without it, which succeeds', async () => {
  gw.fault({ rejectStreamOptions: 400, times: -1 });
  const r = await client().streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hello there' }] });
  assert.match(r.message.content ?? '', /hello there/);
  assert.equal(gw.counts()[CHAT], 2, 'the refused request and the one without stream_options');
  const last = gw.requests().filter((q) => q.path === '/v1/chat/completions').pop();
  assert.equal((last?.body as { stream_options?: unknown } | undefined)?.stream_options, undefined, 'the second request has no stream_options');
});
