// Review: the vscode.lm provider's answer follows the streaming setting (src/lm/core/answer.ts),
// against the local gateway.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import type { ChatStreamEvent } from '../../src/api/wire';
import { answerLmRequest } from '../../src/lm/core/answer';
import { useGateway } from './helpers';

const gw = useGateway();

const READ_FILE = [{ type: 'function' as const, function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

async function answer(stream: boolean, content: string, tools?: typeof READ_FILE) {
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const texts: string[] = [];
  const result = await answerLmRequest(client, { model: 'gw-chat', messages: [{ role: 'user', content }], ...(tools ? { tools } : {}) }, {
    stream,
    onEvent: (e: ChatStreamEvent) => {
      if (e.type === 'text') texts.push(e.text);
    },
  });
  const sent = gw.requests().filter((r) => r.route === '/v1/chat/completions').map((r) => (r.body as { stream?: unknown }).stream);
  return { result, texts, sent };
}

void describe('review: one vscode.lm answer, streamed or not', () => {
  void it('with streaming off, one non-streaming request and its whole text reported once', async () => {
    const { result, texts, sent } = await answer(false, 'no stream please');
    assert.deepEqual(sent, [false]);
    assert.deepEqual(texts, ['Echo: no stream please']);
    assert.equal(result.message.content, 'Echo: no stream please');
  });

  void it('with streaming on, a streamed request and the text in several pieces', async () => {
    const { texts, sent } = await answer(true, 'stream it in pieces please');
    assert.deepEqual(sent, [true]);
    assert.ok(texts.length >= 2, `pieces: ${texts.length}`);
    assert.equal(texts.join(''), 'Echo: stream it in pieces please');
  });

  void it('with streaming off, tool calls come back in the result', async () => {
    const { result } = await answer(false, '#tools [{"calls":[{"name":"read_file","arguments":{"path":"x.md"}}]}]', READ_FILE);
    assert.deepEqual(result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments) as unknown]), [['read_file', { path: 'x.md' }]]);
  });
});
