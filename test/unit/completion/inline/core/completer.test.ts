// One completion end to end against the local gateway, both ways: fill-in-the-middle on
// /v1/completions and the chat infill prompt on /v1/chat/completions (whose echo answer is prose,
// so it must give no suggestion).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { completeAt } from '../../../../../src/completion/inline/core/completer';
import { assembleContext } from '../../../../../src/completion/inline/core/context';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway();
const text = 'export function greet(name: string): string {\n  return \n}\n';
const ctx = () =>
  assembleContext({ text, offset: text.indexOf('return ') + 7, path: 'g.ts', languageId: 'typescript' });

void describe('completeAt', () => {
  void it('FIM: the gateway continuation, cleaned, one attempt', async () => {
    gw.setCompletions({ latencyMs: 0 });
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    assert.equal(await completeAt(client, ctx(), { model: 'gw-coder', way: 'fim' }), '`Hello, ${name}!`;');
    const body = gw.requests()[0]?.body as { prompt: string; suffix: string };
    assert.ok(body.prompt.startsWith('// Path: g.ts\n'));
    assert.equal(body.suffix, '\n}\n');
  });
  void it('chat: the infill prompt goes to the chat endpoint; the fenced, restated answer is cleaned', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    assert.equal(await completeAt(client, ctx(), { model: 'gw-chat', way: 'chat' }), '`Hello, ${name}!`;');
    const body = gw.requests()[0]?.body as { messages: { content: string }[]; stream: boolean };
    assert.equal(gw.requests()[0]?.route, '/v1/chat/completions');
    assert.equal(body.stream, false);
    assert.ok(body.messages[1]!.content.includes('return {{FILL_HERE}}\n}'));
  });
  void it('chat: a prose answer gives no suggestion', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    const other = 'let unknownThing = \n';
    const c = assembleContext({ text: other, offset: other.length - 1, path: 'u.ts', languageId: 'typescript' });
    assert.equal(await completeAt(client, c, { model: 'gw-chat', way: 'chat' }), undefined);
  });
  void it('a failure is not retried', async () => {
    gw.fault({ match: { path: '/v1/completions' }, status: 503 });
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 2 });
    await assert.rejects(completeAt(client, ctx(), { model: 'gw-coder', way: 'fim' }));
    assert.equal(gw.counts()['POST /v1/completions'], 1);
  });
});
