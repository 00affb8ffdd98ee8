import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lmFailure } from '../../src/lm/answer/core/failure';
import { toModelInfo } from '../../src/lm/models/core/models';
import { llamaClient, useLlama } from './helpers';

/**
 * The VS Code language-model provider's core (src/lm/core) against llama.cpp's real llama-server:
 * the window it reports to VS Code, and what a caller is told when a request does not fit.
 */

const llama = useLlama({ ctx: 2048, slots: 1, alias: 'gws-lm' });

void test("the provider reports llama-server's window (meta.n_ctx) to VS Code, input plus output", async () => {
  const record = (await llamaClient(llama).listModels()).find((m) => m.id === llama.model);
  assert.ok(record);
  const info = toModelInfo(record);
  assert.equal(info.maxInputTokens + info.maxOutputTokens, 2048);
  assert.ok(info.maxInputTokens >= 1024, `input ${info.maxInputTokens}`);
});

void test("a caller whose request overflows llama-server's window is told so with the server's figures", async () => {
  const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
  const err = await llamaClient(llama)
    .streamChat({ model: llama.model, messages: [{ role: 'user', content: words }] })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  const f = lmFailure(err, llama.model);
  assert.match(f.message, /does not fit the context window of "gws-lm"/);
  assert.match(f.message, /counted \d+ tokens for a window of 2048/);
  assert.equal(f.refreshModels, false);
});
