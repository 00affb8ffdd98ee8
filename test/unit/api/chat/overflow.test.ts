// Overflow errors recognised in each server's shape (src/api/chat/overflow.ts), as the local gateway
// sends them over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { readOverflow } from '../../../../src/api/chat/overflow';
import { useGateway } from '../../../support/helpers';

const gw = useGateway({ contextModels: true });
const client = () => new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });

async function overflowOf(model: string, maxTokens?: number) {
  const err = await client()
    .chat({
      model,
      messages: [{ role: 'user', content: 'word '.repeat(40_000) }],
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(err, `${model} should refuse`);
  return readOverflow(err);
}

void test('an overflow is recognised in each server shape, with the window and the count it states', async () => {
  // The gateway's rule: 4 per message + ceil(chars / 4).
  const prompt = 4 + 50_000;
  assert.deepEqual(await overflowOf('gw-window-llama'), { shape: 'llama.cpp', window: 4096, promptTokens: prompt });
  assert.deepEqual(await overflowOf('gw-window-openai'), { shape: 'openai', window: 8192, promptTokens: prompt });
  assert.deepEqual(await overflowOf('gw-window-vllm'), { shape: 'vllm', window: 8192, promptTokens: prompt });
  assert.deepEqual(await overflowOf('gw-window-gemini'), {
    shape: 'prompt-too-long',
    window: 6144,
    promptTokens: prompt,
  });
});

void test("vLLM refusing prompt plus max_tokens (in OpenAI's words) is recognised with the prompt alone counted", async () => {
  gw.setContextWindow({ model: 'gw-window-vllm', window: 60_000 });
  try {
    assert.deepEqual(await overflowOf('gw-window-vllm', 20_000), {
      shape: 'openai',
      window: 60_000,
      promptTokens: 50_004,
    });
  } finally {
    gw.setContextWindow({ model: 'gw-window-vllm', window: 8192 });
  }
});

void test('other 400s are not overflows', async () => {
  const err = await client()
    .chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }], temperature: 5 })
    .catch((e: unknown) => e);
  assert.equal(readOverflow(err), undefined);
});
