// What a failed vscode.lm request tells its caller (src/lm/answer/core/failure.ts), against the local gateway.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { describeError } from '../../../../../src/contracts/errorWords';
import { answerLmRequest } from '../../../../../src/lm/answer/core/answer';
import { lmFailure } from '../../../../../src/lm/answer/core/failure';
import { requiredRequest } from '../../../../support/lmFixtures';
import { LmModelCache } from '../../../../../src/lm/models/core/models';
import { CHAT_MODELS, VIDEO_MODELS } from '../../../../gateway/models';
import { gatewayFailure, useGateway } from '../../../../support/helpers';

// A 404 gets words for VS Code's model picker and drops the cached model list.
void describe('a 404', () => {
  const gw = useGateway();

  function newClient(baseUrl = gw.url): GatewayClient {
    return new GatewayClient({ baseUrl, apiKey: gw.keys.valid, maxRetries: 0 });
  }

  function modelListings(): number {
    return gw.requests().filter((r) => r.route === '/v1/models').length;
  }

  /** A `/v1/models` answer (status 200) with these records instead of the gateway's own. */
  function listFault(data: unknown[]): void {
    gw.fault({ match: { method: 'GET', path: '/v1/models' }, status: 200, body: { object: 'list', data } });
  }

  void describe('a 404 through vscode.lm', () => {
    void it('a model the gateway stopped offering fails with words for the model picker, and the cached list is dropped so the next listing leaves it out', async () => {
      const retired = {
        id: 'gw-retired',
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'gateway-studio',
        capabilities: ['streaming'],
        modalities: ['text'],
      };
      listFault([...CHAT_MODELS, retired, ...VIDEO_MODELS]);
      const client = newClient();
      const cache = new LmModelCache(60_000);
      const before = await cache.load(client);
      assert.ok(
        before.some((m) => m.id === 'gw-retired'),
        'the first listing offers the model',
      );
      assert.equal(cache.cached(client), before, 'the list is reused');
      assert.equal(modelListings(), 1);

      const e = await gatewayFailure(
        answerLmRequest(client, requiredRequest('gw-retired', 'hello'), { stream: true, onEvent: () => undefined }),
      );
      assert.equal(e.status, 404);
      const f = lmFailure(e, 'gw-retired');
      assert.equal(f.refreshModels, true);
      assert.match(
        f.message,
        /^Not found \(404\)\. The gateway answers 404 for the model "gw-retired": it may no longer offer it/,
      );
      assert.match(f.message, /model picker drops a model that is gone; choose another model there/);
      assert.match(f.message, /base URL \(gatewayStudio\.baseUrl\) probably lacks \/v1/);
      assert.match(f.message, /Server said: .*The model `gw-retired` does not exist.*\(request id req_/);
      assert.doesNotMatch(f.message, /Select Chat Model|model setting/, 'no chat-panel advice');

      // What the provider does with refreshModels.
      cache.invalidate();
      assert.equal(cache.cached(client), undefined);
      const after = await cache.load(client);
      assert.deepEqual(after.map((m) => m.id).sort(), [
        'gw-chat',
        'gw-codex',
        'gw-deepseek',
        'gw-details',
        'gw-latest',
        'gw-reasoner',
        'gw-reasoning',
        'gw-think',
        'gw-vision',
      ]);
      assert.equal(modelListings(), 2);
    });

    void it('a base URL that reaches the host but not its /v1 routes fails with words about /v1', async () => {
      const client = newClient(`${gw.url}/wrong-prefix`);
      const e = await gatewayFailure(
        answerLmRequest(client, requiredRequest('gw-chat', 'hello'), { stream: false, onEvent: () => undefined }),
      );
      assert.equal(e.status, 404);
      const f = lmFailure(e, 'gw-chat');
      assert.equal(f.refreshModels, true);
      assert.match(
        f.message,
        /^Not found \(404\)\. The gateway has no POST \/wrong-prefix\/v1\/chat\/completions: the base URL \(gatewayStudio\.baseUrl\) probably lacks \/v1/,
      );
      assert.match(f.message, /never include \/chat\/completions/);
      assert.doesNotMatch(f.message, /Select Chat Model|model picker/);
    });

    void it('a 404 that names neither the model nor the route says both causes', async () => {
      gw.fault({
        match: { path: '/v1/chat/completions' },
        status: 404,
        body: { error: { type: 'not_found', code: 'not_found', message: 'Not Found', param: null } },
      });
      const e = await gatewayFailure(
        answerLmRequest(newClient(), requiredRequest('gw-chat', 'hello'), { stream: false, onEvent: () => undefined }),
      );
      const f = lmFailure(e, 'gw-chat');
      assert.equal(f.refreshModels, true);
      assert.match(
        f.message,
        /either it no longer offers this model .* or the base URL is wrong\. If every model answers 404/,
      );
    });

    void it("other errors keep the product's words and leave the model list alone", async () => {
      gw.fault({ match: { path: '/v1/chat/completions' }, status: 401 });
      const e = await gatewayFailure(
        answerLmRequest(newClient(), requiredRequest('gw-chat', 'hello'), { stream: false, onEvent: () => undefined }),
      );
      const f = lmFailure(e, 'gw-chat');
      const d = describeError(e);
      assert.equal(f.message, `${d.title}. ${d.detail}`);
      assert.match(f.message, /The API key was refused \(401\).*Set API Key/);
      assert.equal(f.refreshModels, false);
    });

    void it('a listing still under way when the list is dropped does not put the old list back', async () => {
      gw.fault({ match: { path: '/v1/models' }, delayMs: 150 });
      const client = newClient();
      const cache = new LmModelCache(60_000);
      const pending = cache.load(client);
      cache.invalidate();
      assert.equal((await pending).length, 9, 'the caller still gets its answer');
      assert.equal(cache.cached(client), undefined);
    });
  });
});

// A caller of the language-model provider gets the window's words, with the server's numbers.
void describe('a context overflow', () => {
  const gw = useGateway({ contextModels: true });

  void it('says the request does not fit the model window, with the count and the window the server stated', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const err = await client
      .chat({ model: 'gw-window-llama', messages: [{ role: 'user', content: 'word '.repeat(20_000) }] })
      .catch((e: unknown) => e);
    const f = lmFailure(err, 'gw-window-llama');
    assert.match(f.message, /does not fit the context window of "gw-window-llama"/);
    assert.match(f.message, /counted 25004 tokens for a window of 4096/);
    assert.match(f.message, /gatewayStudio\.models\.overrides/);
    assert.equal(f.refreshModels, false);
  });

  void it('the model entries carry the window the record states, and the overrides win', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const models = await new LmModelCache(60_000).load(client, undefined, {
      'gw-window-vllm': { contextWindow: 2000, tools: false },
    });
    const llama = models.find((m) => m.id === 'gw-window-llama')!;
    assert.equal(llama.maxInputTokens + llama.maxOutputTokens, 4096);
    const vllm = models.find((m) => m.id === 'gw-window-vllm')!;
    assert.equal(vllm.maxInputTokens + vllm.maxOutputTokens, 2000);
    assert.equal(vllm.capabilities.toolCalling, false);
  });
});
