// The window's sources, the estimate and the reserve (src/chat/context/core/contextWindow.ts),
// with the local gateway's model list over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import {
  answerReserve,
  DEFAULT_CONTEXT_WINDOW,
  rawTextTokens,
  readModelLimits,
  readOverrides,
  resolveModelLimits,
  TokenEstimator,
} from '../../../../../src/chat/context/core/contextWindow';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway({ contextModels: true });
const client = () => new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });

void test('the window is read from every field shape servers list it in', () => {
  const cases: [Record<string, unknown>, number, string][] = [
    [{ context_length: 1000 }, 1000, 'context_length'],
    [{ context_window: 1001 }, 1001, 'context_window'],
    [{ max_context_length: 1002 }, 1002, 'max_context_length'],
    [{ max_model_len: 1003 }, 1003, 'max_model_len'],
    [{ top_provider: { context_length: 1004 } }, 1004, 'top_provider.context_length'],
    [{ meta: { n_ctx: 1005, n_ctx_train: 99999 } }, 1005, 'meta.n_ctx'],
    [{ max_input_tokens: 1006 }, 1006, 'max_input_tokens'],
    [{ input_token_limit: 1007 }, 1007, 'input_token_limit'],
  ];
  for (const [fields, window, field] of cases) {
    const l = readModelLimits({ id: 'm', ...fields });
    assert.equal(l.window, window, field);
    assert.equal(l.field, field);
  }
  assert.equal(readModelLimits({ id: 'm', context_length: 'big' }).window, undefined);
  assert.equal(readModelLimits({ id: 'm', max_output_tokens: 512 }).maxOutput, 512);
  assert.equal(readModelLimits({ id: 'm', top_provider: { max_completion_tokens: 256 } }).maxOutput, 256);
});

void test('the window comes from an overflow error first, then the override, then the record, then the stated default', () => {
  const record = { id: 'm', context_length: 16_000, max_output_tokens: 1000 };
  assert.deepEqual(resolveModelLimits({}), { window: DEFAULT_CONTEXT_WINDOW, source: 'default' });
  assert.equal(resolveModelLimits({ record }).source, 'model');
  assert.equal(resolveModelLimits({ record }).window, 16_000);
  const o = resolveModelLimits({ record, override: { contextWindow: 4000, maxOutputTokens: 300, tools: false } });
  assert.deepEqual(o, { window: 4000, maxOutput: 300, source: 'override', tools: false });
  assert.deepEqual(resolveModelLimits({ record, override: { contextWindow: 4000 }, learned: 2048 }), {
    window: 2048,
    maxOutput: 1000,
    source: 'error',
  });
  // An input limit excludes the answer.
  assert.equal(
    resolveModelLimits({ record: { id: 'm', max_input_tokens: 6144, max_output_tokens: 2048 } }).window,
    8192,
  );
});

void test('the overrides setting keeps what is valid and drops the rest', () => {
  assert.deepEqual(
    readOverrides({ a: { contextWindow: 4096, maxOutputTokens: -1, images: true, tools: 'no' }, b: 3 }),
    {
      a: { contextWindow: 4096, images: true },
      b: {},
    },
  );
});

void test('the estimate counts CJK characters one token each and calibrates to the server count', () => {
  assert.equal(rawTextTokens('abcdefgh'), 2);
  assert.equal(rawTextTokens('你好世界'), 4);
  const est = new TokenEstimator();
  const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x'.repeat(400) }] };
  const raw = est.count(req);
  est.calibrate(req, raw * 2);
  assert.equal(est.count(req), raw * 2);
  assert.equal(est.charsPerToken, 2);
});

void test('the reserve is max_tokens, else the output limit, never over a quarter of the window', () => {
  assert.equal(answerReserve(8192, 500, 4000), 500);
  assert.equal(answerReserve(8192, undefined, 1000), 1000);
  assert.equal(answerReserve(8192, undefined, undefined), 2048);
  assert.equal(answerReserve(8192, 100_000, undefined), 2048);
});

void test('the gateway lists its windowed models in their fields, and the client reads each', async () => {
  const models = await client().listModels();
  const want: Record<string, number> = {
    'gw-window-openai': 8192,
    'gw-window-openrouter': 8192,
    'gw-window-llama': 4096,
    'gw-window-vllm': 8192,
    'gw-window-length': 8192,
    'gw-window-maxlen': 8192,
    'gw-window-litellm': 8192,
    'gw-window-gemini': 8192,
  };
  for (const [id, window] of Object.entries(want)) {
    const r = models.find((m) => m.id === id);
    assert.ok(r, id);
    assert.equal(resolveModelLimits({ record: r }).window, window, id);
  }
  assert.equal(resolveModelLimits({ record: models.find((m) => m.id === 'gw-window-unlisted') }).source, 'default');
});
