// One /v1/responses call over SSE bytes from an injected fetch: framing, [DONE] without completion.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpClient } from '../../../../src/api/transport/http';
import { streamResponses } from '../../../../src/api/responses/call';
import { gatewayFailure } from '../../../support/helpers';

const http = (body: string, type = 'text/event-stream') =>
  new HttpClient({
    baseUrl: 'https://relay.invalid',
    apiKey: 'k',
    maxRetries: 0,
    fetch: () => Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': type } })),
  });
const ev = (type: string, fields: object) => `event: ${type}\r\ndata:${JSON.stringify({ type, ...fields })}\r\n\r\n`;

void test('events with event names, CRLF and no space after data: are read', async () => {
  const body =
    ev('response.output_text.delta', { delta: 'Hel' }) +
    ': keep-alive\n\n' +
    ev('response.output_text.delta', { delta: 'lo' }) +
    ev('response.completed', { response: { status: 'completed', usage: { input_tokens: 1, output_tokens: 1 } } });
  const a = await streamResponses(http(body), { model: 'm', input: [] });
  assert.equal(a.result.message.content, 'Hello');
  assert.equal(a.result.finishReason, 'stop');
});

void test('[DONE] without response.completed is a truncated answer with its text kept', async () => {
  const e = await gatewayFailure(
    streamResponses(http(ev('response.output_text.delta', { delta: 'Half' }) + 'data: [DONE]\n\n'), {}),
  );
  assert.equal(e.kind, 'truncated');
  assert.match(e.message, /without response\.completed/);
  assert.equal(e.partial?.message.content, 'Half');
});

void test('an event: error line whose data is plain text is a stream error', async () => {
  const e = await gatewayFailure(streamResponses(http('event: error\ndata: upstream exploded\n\n'), {}));
  assert.equal(e.kind, 'stream');
  assert.match(e.message, /upstream exploded/);
});

void test('a gateway that ignores stream: true answers one JSON response', async () => {
  const json = JSON.stringify({
    status: 'completed',
    output: [{ type: 'message', content: [{ type: 'output_text', text: 'Whole' }] }],
  });
  const a = await streamResponses(http(json, 'application/json'), {});
  assert.equal(a.result.message.content, 'Whole');
});
