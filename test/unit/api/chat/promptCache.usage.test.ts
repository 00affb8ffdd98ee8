// The cached share of a prompt in each dialect relays report it (src/api/chat/promptCache.ts),
// from the providers' documented usage objects, and its one field for the ledger and the chat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCachedTokens, withCachedTokens } from '../../../../src/api/chat/promptCache';

void test('each dialect is read: OpenAI, Anthropic through a relay, a flat field, DeepSeek', () => {
  // OpenAI (and OpenRouter, new-api): usage.prompt_tokens_details.cached_tokens.
  assert.equal(
    readCachedTokens({ prompt_tokens: 2006, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 1920 } }),
    1920,
  );
  // Anthropic's fields as LiteLLM passes them on beside the OpenAI ones.
  assert.equal(
    readCachedTokens({ prompt_tokens: 2100, cache_creation_input_tokens: 0, cache_read_input_tokens: 2048 }),
    2048,
  );
  assert.equal(readCachedTokens({ prompt_tokens: 100, cached_tokens: 64 }), 64);
  assert.equal(readCachedTokens({ prompt_tokens: 100, prompt_cache_hit_tokens: 32, prompt_cache_miss_tokens: 68 }), 32);
  // OpenAI's field wins when a relay sends several.
  assert.equal(readCachedTokens({ prompt_tokens_details: { cached_tokens: 10 }, cache_read_input_tokens: 20 }), 10);
});

void test('nothing said, or nonsense, reads as nothing', () => {
  for (const u of [
    undefined,
    null,
    'usage',
    {},
    { prompt_tokens_details: null },
    { prompt_tokens_details: { cached_tokens: -1 } },
    { cached_tokens: 'many' },
    { cache_read_input_tokens: Number.NaN },
  ])
    assert.equal(readCachedTokens(u), undefined, JSON.stringify(u));
  assert.equal(readCachedTokens({ cached_tokens: 12.7 }), 12);
});

void test("the count lands in OpenAI's field, the relay's own kept; an OpenAI usage is left as it is", () => {
  const u = { prompt_tokens: 10, cache_read_input_tokens: 8, prompt_tokens_details: { audio_tokens: 0 } };
  assert.deepEqual(withCachedTokens(u), { ...u, prompt_tokens_details: { audio_tokens: 0, cached_tokens: 8 } });
  const openai = { prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 0 }, cached_tokens: 5 };
  assert.equal(withCachedTokens(openai), openai);
  const plain = { prompt_tokens: 10 };
  assert.equal(withCachedTokens(plain), plain);
});
