// The gateway's model records as VS Code language-model entries (src/lm/models/core/models.ts).
import assert from 'node:assert/strict';
import { test, describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import {
  chatModelInfos,
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_OUTPUT_TOKENS,
  tokenLimits,
  toModelInfo,
} from '../../../../../src/lm/models/core/models';
import { useGateway } from '../../../../support/helpers';
import { CHAT_MODELS } from '../../../../gateway/models';

const gw = useGateway();

void test("the local gateway's list gives its chat models, image input only where listed, tool calling on all", async () => {
  const records = await new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }).listModels();
  assert.ok(
    records.some((r) => r.id === 'vendor-image-video'),
    'the list has video models to leave out',
  );
  const infos = chatModelInfos(records);
  assert.deepEqual(infos.map((m) => m.id).sort(), [
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
  for (const m of infos) {
    assert.equal(m.capabilities.toolCalling, true);
    assert.equal(m.capabilities.imageInput, m.id === 'gw-vision', `${m.id} imageInput`);
    assert.equal(m.family, m.id);
    assert.equal(m.detail, 'gateway-studio');
    assert.match(m.tooltip ?? '', /Capabilities: .*streaming/);
  }
});

void test('a record that states no limits gets the stated default window (32K), half of it for the answer', () => {
  assert.deepEqual(tokenLimits({ id: 'm' }), {
    maxInputTokens: DEFAULT_CONTEXT_TOKENS - DEFAULT_OUTPUT_TOKENS,
    maxOutputTokens: DEFAULT_OUTPUT_TOKENS,
  });
});

void test('stated limits are used: a context window is split, max_input_tokens is input only, OpenRouter top_provider is read', () => {
  assert.deepEqual(tokenLimits({ id: 'm', context_length: 32_768 }), {
    maxInputTokens: 16_384,
    maxOutputTokens: 16_384,
  });
  assert.deepEqual(tokenLimits({ id: 'm', context_length: 200_000, max_output_tokens: 8_000 }), {
    maxInputTokens: 192_000,
    maxOutputTokens: 8_000,
  });
  assert.deepEqual(tokenLimits({ id: 'm', max_input_tokens: 50_000, max_output_tokens: 4_000 }), {
    maxInputTokens: 50_000,
    maxOutputTokens: 4_000,
  });
  assert.deepEqual(tokenLimits({ id: 'm', top_provider: { context_length: 64_000, max_completion_tokens: 4_096 } }), {
    maxInputTokens: 59_904,
    maxOutputTokens: 4_096,
  });
  assert.deepEqual(
    tokenLimits({ id: 'm', context_length: 'big', max_output_tokens: -1 }),
    tokenLimits({ id: 'm' }),
    'nonsense values are ignored',
  );
});

void test('the version is the id, whether or not the record has a creation time', () => {
  assert.equal(toModelInfo({ id: 'm', created: 1_767_225_600 }).version, 'm');
  assert.equal(toModelInfo({ id: 'm' }).version, 'm');
  assert.equal(toModelInfo({ id: 'm' }).detail, undefined);
});

/** A `/v1/models` answer (status 200) with these records instead of the gateway's own. */
function listFault(data: unknown[]): void {
  gw.fault({ match: { method: 'GET', path: '/v1/models' }, status: 200, body: { object: 'list', data } });
}

void describe('model versions', () => {
  void it('a relay that stamps created with the listing time gives each model the same version at every listing', async () => {
    const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
    const listings: string[][] = [];
    for (const created of [1_800_000_000, 1_800_000_300]) {
      listFault(CHAT_MODELS.map((m) => ({ ...m, created })));
      listings.push(chatModelInfos(await client.listModels()).map((m) => `${m.id}@${m.version}`));
    }
    assert.deepEqual(listings[0], listings[1]);
    assert.deepEqual(
      listings[0],
      CHAT_MODELS.map((m) => `${m.id}@${m.id}`),
    );
  });
});
