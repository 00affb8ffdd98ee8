// Fill-in-the-middle on `POST /v1/completions` through the product's client, against the real
// local gateway: the scripted continuation, the key, errors, validation, and a stop that closes
// the connection (the gateway records the aborted request).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { completeFim, type FimOptions, type FimRequest } from '../../../../src/api/completions/completions';
import { isGatewayError } from '../../../../src/api/transport/errors';
import { gatewayFailure, useGateway } from '../../../support/helpers';

const gw = useGateway();
const client = (apiKey = gw.keys.valid) => {
  const c = new GatewayClient({ baseUrl: gw.url, apiKey, maxRetries: 0 });
  return { complete: (req: FimRequest, o?: FimOptions) => completeFim(c.http, req, o) };
};
const PREFIX = 'export function add(a: number, b: number): number {\n  return';

void describe('completeFim (POST /v1/completions)', () => {
  void it('sends prompt, suffix and max_tokens with the key, and returns the first choice text', async () => {
    gw.setCompletions({ latencyMs: 0, texts: [] });
    const r = await client().complete({
      model: 'gw-coder',
      prompt: PREFIX,
      suffix: '\n}\n',
      max_tokens: 32,
      stop: ['\n'],
    });
    assert.equal(r.text, ' a + b;');
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.model, 'gw-coder');
    const [req] = gw.requests().filter((q) => q.route === '/v1/completions');
    assert.equal(req?.auth, 'valid');
    assert.deepEqual(
      { ...(req?.body as object), prompt: undefined },
      { model: 'gw-coder', prompt: undefined, suffix: '\n}\n', max_tokens: 32, stop: ['\n'], stream: false },
    );
  });

  void it('a 401 is the auth error of the chat, not retried', async () => {
    const e = await gatewayFailure(client('sk-wrong').complete({ model: 'gw-coder', prompt: PREFIX, max_tokens: 8 }));
    assert.equal(e.kind, 'auth');
    assert.equal(e.status, 401);
    assert.equal(gw.counts()['POST /v1/completions'], 1);
  });

  void it('an unknown model is a 404 naming the model', async () => {
    const e = await gatewayFailure(client().complete({ model: 'no-such', prompt: PREFIX, max_tokens: 8 }));
    assert.equal(e.status, 404);
  });

  void it('refuses a request without a model or with a bad max_tokens before sending', async () => {
    await assert.rejects(client().complete({ model: ' ', prompt: 'x', max_tokens: 8 }), (e) =>
      isGatewayError(e, 'validation'),
    );
    await assert.rejects(client().complete({ model: 'gw-coder', prompt: 'x', max_tokens: 0 }), (e) =>
      isGatewayError(e, 'validation'),
    );
    assert.equal(gw.counts()['POST /v1/completions'] ?? 0, 0);
  });

  void it('a stop closes the connection: the gateway records the aborted request', async () => {
    gw.setCompletions({ latencyMs: 2000 });
    try {
      const ctrl = new AbortController();
      const pending = client().complete({ model: 'gw-coder', prompt: PREFIX, max_tokens: 8 }, { signal: ctrl.signal });
      await waitUntil(() => (gw.counts()['POST /v1/completions'] ?? 0) === 1);
      ctrl.abort();
      await assert.rejects(pending, (e) => isGatewayError(e, 'aborted'));
      await waitUntil(() => gw.abortedCompletions().length === 1);
      assert.equal(gw.abortedCompletions()[0]?.model, 'gw-coder');
      assert.ok(gw.abortedCompletions()[0]?.promptTail.endsWith('return'));
    } finally {
      gw.setCompletions({ latencyMs: 0 });
    }
  });

  void it('the latency knob delays the answer', async () => {
    gw.setCompletions({ latencyMs: 150 });
    try {
      const t0 = performance.now();
      await client().complete({ model: 'gw-coder', prompt: PREFIX, max_tokens: 8 });
      assert.ok(performance.now() - t0 >= 140);
    } finally {
      gw.setCompletions({ latencyMs: 0 });
    }
  });
});

async function waitUntil(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
