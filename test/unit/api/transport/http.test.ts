// HTTP core of the gateway client against the real local gateway: authentication (spec 5), the
// error object and status meanings (spec 7), retries and timeouts (design.md, wire-quirks.md),
// and the rule that the key never leaks into errors, logs or URLs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { GatewayError, notFoundCause } from '../../../../src/api/transport/errors';
import { describeError } from '../../../../src/contracts/errorWords';
import { HttpClient } from '../../../../src/api/transport/http';
import { gatewayFailure as failure, useGateway } from '../../../support/helpers';

const gw = useGateway();

function client(extra: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}): GatewayClient {
  return new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, ...extra });
}

const modelsCount = () => gw.counts()['GET /v1/models'] ?? 0;

void describe('authentication (spec 5)', () => {
  void it('every request carries Authorization: Bearer <key> and the gateway accepts it', async () => {
    const models = await client().listModels();
    assert.ok(models.length > 0);
    const reqs = gw.requests();
    assert.equal(reqs.length, 1);
    assert.equal(reqs[0]?.auth, 'valid');
  });

  void it('a missing key gives 401, kind auth, not retried, with Set API Key offered', async () => {
    const err = await failure(client({ apiKey: undefined }).listModels());
    assert.equal(err.status, 401);
    assert.equal(err.kind, 'auth');
    assert.equal(modelsCount(), 1, '401 is not retried');
    assert.equal(gw.requests()[0]?.auth, 'missing');
    const d = describeError(err);
    assert.deepEqual(d.actions, ['setApiKey', 'showLog']);
    assert.match(d.detail, /API Keys page/);
    assert.match(d.detail, /environment variable/, '401 mentions an old env var overriding the key (spec 5.4)');
  });

  void it('a wrong key gives 401 and the key is not in the message', async () => {
    const err = await failure(client({ apiKey: 'sk-wrong-key-1234567890' }).listModels());
    assert.equal(err.kind, 'auth');
    assert.ok(!err.message.includes('sk-wrong-key-1234567890'));
  });

  void it('a key without permission gives 403 forbidden; the text names permission and group', async () => {
    const err = await failure(client({ apiKey: gw.keys.noPermission }).listModels());
    assert.equal(err.status, 403);
    assert.equal(err.kind, 'forbidden');
    assert.equal(err.code, 'permission_denied');
    assert.equal(modelsCount(), 1, '403 is not retried');
    const d = describeError(err);
    assert.match(d.title, /403/);
    assert.match(d.detail, /group is not allowed/);
  });

  void it('a key without balance gives 403 and the text names the balance', async () => {
    const err = await failure(client({ apiKey: gw.keys.noBalance }).listModels());
    assert.equal(err.kind, 'forbidden');
    assert.match(describeError(err).detail, /balance looks insufficient/);
  });
});

void describe('paths and content type (spec 4.1, 9.1)', () => {
  void it('every path the client calls carries the /v1 prefix, and chat bodies are sent as application/json', async () => {
    const c = client();
    await c.listModels();
    await c.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });
    await c.streamChat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });
    const reqs = gw.requests();
    assert.equal(reqs.length, 3);
    for (const r of reqs) assert.ok(r.path.startsWith('/v1/'), r.path);
    for (const r of reqs.filter((x) => x.method === 'POST'))
      assert.match(r.headers['content-type'] ?? '', /^application\/json/);
    assert.equal(reqs[2]?.headers.accept, 'text/event-stream');
  });
});

void describe('404 means a base URL without /v1 or a wrong model (spec 4.7, 7)', () => {
  void it('a base URL on the wrong path gives 404 and the base URL is named the likelier cause', async () => {
    const err = await failure(new GatewayClient({ baseUrl: `${gw.url}/api`, apiKey: gw.keys.valid }).listModels());
    assert.equal(err.status, 404);
    assert.equal(err.kind, 'not_found');
    assert.equal(err.path, '/api/v1/models');
    assert.equal(notFoundCause(err), 'baseUrl');
    assert.match(describeError(err).detail, /base URL is the likelier cause/);
  });

  void it('a wrong model gives 404 and the model is named the likelier cause', async () => {
    const err = await failure(client().chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(err.status, 404);
    assert.equal(err.code, 'model_not_found');
    assert.equal(notFoundCause(err), 'model');
    assert.match(describeError(err).detail, /model ID is the likelier cause/);
  });
});

void describe('errors use the spec error object (spec 7)', () => {
  void it('type, code, message and param are read from the error object', async () => {
    gw.fault({
      match: { path: '/v1/models' },
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'bad_thing', message: 'thing is bad', param: 'thing' } },
    });
    const err = await failure(client().listModels());
    assert.equal(err.kind, 'bad_request');
    assert.equal(err.type, 'invalid_request_error');
    assert.equal(err.code, 'bad_thing');
    assert.equal(err.param, 'thing');
    assert.match(err.message, /thing is bad/);
  });

  void it('the string "None" in type or param (Python relays) counts as absent', async () => {
    gw.fault({
      match: { path: '/v1/models' },
      status: 400,
      body: { error: { type: 'None', code: 'x', message: 'm', param: 'None' } },
    });
    const err = await failure(client().listModels());
    assert.equal(err.type, undefined);
    assert.equal(err.param, null);
  });

  void it('an HTML error page becomes a readable message, not a JSON parse failure', async () => {
    gw.fault({
      match: { path: '/v1/models' },
      status: 502,
      body: '<html><body>Bad gateway</body></html>',
      headers: { 'content-type': 'text/html' },
    });
    const err = await failure(client({ maxRetries: 0 }).listModels());
    assert.equal(err.kind, 'server');
    assert.match(err.message, /Bad gateway/);
  });

  void it('a 200 that is not JSON is an invalid_response naming the endpoint', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 200, body: 'hello', headers: { 'content-type': 'text/plain' } });
    const err = await failure(client().listModels());
    assert.equal(err.kind, 'invalid_response');
    assert.match(err.message, /\/v1\/models/);
  });
});

void describe('retries (design.md 3, wire-quirks "Retries and timeouts")', () => {
  void it('a 429 with retry-after 1 is retried once after about a second', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 429, retryAfter: 1 });
    const retries: number[] = [];
    const t0 = Date.now();
    const models = await client({ onRetry: (i) => retries.push(i.delayMs) }).listModels();
    const elapsed = Date.now() - t0;
    assert.ok(models.length > 0);
    assert.equal(modelsCount(), 2);
    assert.deepEqual(retries, [1000]);
    assert.ok(elapsed >= 900 && elapsed < 3000, `elapsed ${elapsed} ms`);
  });

  void it('retry-after-ms wins over retry-after', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 429, retryAfter: 30, retryAfterMs: 50 });
    const t0 = Date.now();
    await client().listModels();
    assert.ok(Date.now() - t0 < 1000);
    assert.equal(modelsCount(), 2);
  });

  void it('a 429 that persists is retried maxRetries times and the text says how many retries happened', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 429, retryAfterMs: 10, times: -1 });
    const err = await failure(client({ maxRetries: 2 }).listModels());
    assert.equal(err.kind, 'rate_limit');
    assert.equal(err.type, 'rate_limit_error');
    assert.equal(err.code, 'rate_limit_exceeded');
    assert.equal(err.retries, 2);
    assert.equal(modelsCount(), 3);
    const d = describeError(err);
    assert.match(d.title, /429/);
    assert.match(d.detail, /after 2 automatic retries/);
    assert.ok(d.actions.includes('retry'));
  });

  void it('a 500 without retry-after waits 0.5 s, then 1 s (jitter pinned to none)', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 500, times: 2 });
    const delays: number[] = [];
    const t0 = Date.now();
    await client({ random: () => 0, onRetry: (i) => delays.push(i.delayMs) }).listModels();
    assert.deepEqual(delays, [500, 1000]);
    assert.ok(Date.now() - t0 >= 1400);
    assert.equal(modelsCount(), 3);
  });

  void it('x-should-retry: false stops the retry of a 503', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 503, headers: { 'x-should-retry': 'false' }, times: -1 });
    const err = await failure(client().listModels());
    assert.equal(err.kind, 'server');
    assert.equal(modelsCount(), 1);
  });

  void it('x-should-retry: true retries a 400', async () => {
    gw.fault({
      match: { path: '/v1/models' },
      status: 400,
      headers: { 'x-should-retry': 'true', 'retry-after-ms': '5' },
    });
    await client().listModels();
    assert.equal(modelsCount(), 2);
  });

  void it('400, 401, 403 and 404 are not retried', async () => {
    for (const status of [400, 401, 403, 404]) {
      gw.resetCounts();
      gw.fault({ match: { path: '/v1/models' }, status });
      await failure(client().listModels());
      assert.equal(modelsCount(), 1, `status ${status}`);
    }
  });

  void it('408 and 409 are retried', async () => {
    for (const status of [408, 409]) {
      gw.resetCounts();
      gw.fault({ match: { path: '/v1/models' }, status, retryAfterMs: 5 });
      await client().listModels();
      assert.equal(modelsCount(), 2, `status ${status}`);
    }
  });

  void it('a connection dropped before headers is retried, then reported as a network error', async () => {
    gw.fault({ match: { path: '/v1/models' }, drop: 'before-headers', times: -1 });
    const err = await failure(client({ maxRetries: 1, random: () => 1 }).listModels());
    assert.equal(err.kind, 'network');
    assert.equal(err.retries, 1);
    assert.equal(modelsCount(), 2);
    assert.match(describeError(err).detail, /proxy/);
  });

  void it('retry: false makes exactly one attempt (as video creation must)', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 503, times: -1 });
    const http = new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    await failure(http.request('GET', '/models', { retry: false }));
    assert.equal(modelsCount(), 1);
  });

  void it('an abort during the wait before a retry stops at once with kind aborted', async () => {
    gw.fault({ match: { path: '/v1/models' }, status: 429, retryAfter: 30 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 100);
    const t0 = Date.now();
    const err = await failure(client().listModels(ctrl.signal));
    assert.equal(err.kind, 'aborted');
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(modelsCount(), 1);
  });
});

void describe('timeouts', () => {
  void it('no headers within the request timeout gives a timeout error', async () => {
    gw.fault({ match: { path: '/v1/models' }, delayMs: 1500 });
    const t0 = Date.now();
    const err = await failure(client({ timeoutMs: 150, maxRetries: 0 }).listModels());
    assert.equal(err.kind, 'timeout');
    assert.ok(Date.now() - t0 < 1200);
    assert.ok(describeError(err).actions.includes('retry'));
  });

  void it('a timeout is retryable: a slow first answer then a fast one succeeds', async () => {
    gw.fault({ match: { path: '/v1/models' }, delayMs: 1000 });
    const models = await client({ timeoutMs: 200, maxRetries: 1, random: () => 1 }).listModels();
    assert.ok(models.length > 0);
    assert.equal(modelsCount(), 2);
  });
});

void describe('the key never leaks', () => {
  void it('a server that echoes the key back has it masked in the error and in every log line', async () => {
    const key = gw.keys.valid;
    gw.fault({
      match: { path: '/v1/models' },
      status: 400,
      body: { error: { message: `bad header Authorization: Bearer ${key} (${key})`, type: 'x', code: 'y' } },
    });
    const lines: string[] = [];
    const err = await failure(client({ log: (l, m) => lines.push(`${l} ${m}`) }).listModels());
    assert.ok(!err.message.includes(key), err.message);
    assert.ok(!JSON.stringify(describeError(err)).includes(key));
    assert.ok(lines.length > 0);
    for (const l of lines) assert.ok(!l.includes(key), l);
  });

  void it('a key without the sk- shape is masked too, and never appears in the URL', async () => {
    const odd = 'abc123-custom-secret';
    gw.fault({ match: { path: '/v1/models' }, status: 401, body: { error: { message: `key ${odd} unknown` } } });
    const lines: string[] = [];
    const c = client({ apiKey: odd, log: (_l, m) => lines.push(m) });
    const err = await failure(c.listModels());
    assert.ok(!err.message.includes(odd), err.message);
    assert.ok(!c.http.url('/models').includes(odd));
    for (const l of lines) assert.ok(!l.includes(odd));
  });

  void it('a key pasted with a non-ASCII character is refused before sending, as a key problem, not retried as a network failure', async () => {
    const pasted = 'sk-abcdef123456\u2026';
    const retries: number[] = [];
    const err = await failure(client({ apiKey: pasted, onRetry: (i) => retries.push(i.attempt) }).listModels());
    assert.equal(err.kind, 'config');
    assert.equal(err.field, 'apiKey');
    assert.deepEqual(retries, []);
    assert.equal(modelsCount(), 0, 'nothing was sent');
    const d = describeError(err);
    assert.deepEqual(d.actions, ['setApiKey']);
    assert.match(d.detail, /Set API Key/);
    assert.ok(!JSON.stringify(d).includes('abcdef123456'), 'the key is not in the text');
  });

  void it('the key is not sent to another origin named by an absolute URL', async () => {
    const http = new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid });
    const res = await http.request('GET', `${gw.videoUrl}/v1/models`).catch((e: unknown) => e);
    assert.ok(res instanceof GatewayError);
    assert.equal(res.status, 401, 'the other host saw no key');
  });
});
