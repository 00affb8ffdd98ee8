// A model's limits read from each record shape servers use, the overrides setting parsed keeping
// only valid entries, and which source wins when several state a window.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_CONTEXT_WINDOW,
  readModelLimits,
  readOverrides,
  resolveLimits,
} from '../../../../src/api/models/modelLimits';

void describe('readModelLimits: the window and output limit a record states', () => {
  void it('reads each window field, most specific first, with the field it came from', () => {
    assert.deepEqual(readModelLimits({ context_length: 131072 }), { window: 131072, field: 'context_length' });
    assert.deepEqual(readModelLimits({ context_window: 8192 }), { window: 8192, field: 'context_window' });
    assert.deepEqual(readModelLimits({ max_context_length: 4096 }), { window: 4096, field: 'max_context_length' });
    assert.deepEqual(readModelLimits({ max_model_len: 32000 }), { window: 32000, field: 'max_model_len' });
    assert.deepEqual(readModelLimits({ max_model_len: 1000, context_length: 2000 }), {
      window: 2000,
      field: 'context_length',
    });
  });

  void it("reads OpenRouter's top_provider and llama.cpp's meta.n_ctx (not n_ctx_train)", () => {
    assert.deepEqual(readModelLimits({ top_provider: { context_length: 65536, max_completion_tokens: 4096 } }), {
      window: 65536,
      field: 'top_provider.context_length',
      maxOutput: 4096,
    });
    assert.deepEqual(readModelLimits({ meta: { n_ctx: 8192, n_ctx_train: 131072 } }), {
      window: 8192,
      field: 'meta.n_ctx',
    });
    assert.deepEqual(readModelLimits({ meta: { n_ctx_train: 131072 } }), {});
  });

  void it('marks an input limit (LiteLLM, Gemini) as excluding the answer', () => {
    assert.deepEqual(readModelLimits({ max_input_tokens: 100000, max_output_tokens: 8192 }), {
      window: 100000,
      field: 'max_input_tokens',
      inputOnly: true,
      maxOutput: 8192,
    });
    assert.deepEqual(readModelLimits({ input_token_limit: 1048576, output_token_limit: 65536 }), {
      window: 1048576,
      field: 'input_token_limit',
      inputOnly: true,
      maxOutput: 65536,
    });
  });

  void it('takes digit strings, floors fractions, and ignores zero, negatives, words and non-objects', () => {
    assert.deepEqual(readModelLimits({ context_length: ' 4096 ' }), { window: 4096, field: 'context_length' });
    assert.deepEqual(readModelLimits({ context_length: 4096.7 }), { window: 4096, field: 'context_length' });
    assert.deepEqual(readModelLimits({ context_length: 0, context_window: -5, max_context_length: 'big' }), {});
    assert.deepEqual(readModelLimits({ context_length: Infinity, max_model_len: 2048 }), {
      window: 2048,
      field: 'max_model_len',
    });
    assert.deepEqual(readModelLimits(null), {});
    assert.deepEqual(readModelLimits([{ context_length: 4096 }]), {});
    assert.deepEqual(readModelLimits({ max_completion_tokens: 1000 }), { maxOutput: 1000 });
  });
});

void describe('readOverrides: the overrides setting as typed', () => {
  void it('keeps the valid entries of each model and drops the wrong values', () => {
    const got = readOverrides({
      'gw-chat': { contextWindow: 200000, maxOutputTokens: '8192', images: true, tools: false, completion: 'fim' },
      'gw-bad': { contextWindow: -1, maxOutputTokens: 'lots', images: 'yes', tools: 1, completion: 'infill' },
      'gw-half': { contextWindow: 16384, completion: 'chat', extra: 3 },
      'gw-not-object': 42,
    });
    assert.deepEqual(got, {
      'gw-chat': { contextWindow: 200000, maxOutputTokens: 8192, images: true, tools: false, completion: 'fim' },
      'gw-bad': {},
      'gw-half': { contextWindow: 16384, completion: 'chat' },
      'gw-not-object': {},
    });
  });

  void it('reads a setting that is not an object as no overrides', () => {
    assert.deepEqual(readOverrides(undefined), {});
    assert.deepEqual(readOverrides('gw-chat=8192'), {});
    assert.deepEqual(readOverrides([{ contextWindow: 8192 }]), {});
  });
});

void describe('resolveLimits: which source wins', () => {
  const record = { context_length: 65536, max_output_tokens: 4096 };

  void it('a window learnt from an overflow error wins over the override and the record', () => {
    assert.deepEqual(resolveLimits({ record, override: { contextWindow: 100000 }, learned: 12000 }), {
      window: 12000,
      source: 'error',
      maxOutput: 4096,
    });
  });

  void it("the user's override wins over the record, its output limit and declarations included", () => {
    assert.deepEqual(
      resolveLimits({ record, override: { contextWindow: 100000, maxOutputTokens: 2000, images: false, tools: true } }),
      { window: 100000, source: 'override', maxOutput: 2000, images: false, tools: true },
    );
  });

  void it('the record gives the window and its field; an input limit adds the output limit', () => {
    assert.deepEqual(resolveLimits({ record }), {
      window: 65536,
      source: 'model',
      field: 'context_length',
      maxOutput: 4096,
    });
    assert.deepEqual(resolveLimits({ record: { max_input_tokens: 100000, max_output_tokens: 8192 } }), {
      window: 108192,
      source: 'model',
      field: 'max_input_tokens',
      maxOutput: 8192,
    });
    assert.deepEqual(resolveLimits({ record: { input_token_limit: 30000 } }), {
      window: 30000,
      source: 'model',
      field: 'input_token_limit',
    });
  });

  void it('nothing stated: the fallback, else the 32,768-token default', () => {
    assert.equal(DEFAULT_CONTEXT_WINDOW, 32768);
    assert.deepEqual(resolveLimits({}), { window: 32768, source: 'default' });
    assert.deepEqual(resolveLimits({ record: { id: 'x' }, fallback: 8192, override: { images: true } }), {
      window: 8192,
      source: 'default',
      images: true,
    });
  });
});
