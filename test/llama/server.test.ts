import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { groupAlive, startLlama } from './server';

/** The launcher itself: it starts llama-server in the chroot and leaves nothing behind. */

void test('llama-server starts on 127.0.0.1 with a model under 1 MB, and close() leaves no process and no model file', async () => {
  const s = await startLlama({ ctx: 1024, alias: 'gws-launcher' });
  try {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const health = (await (await fetch(`${s.url}/health`)).json()) as { status?: string };
    assert.equal(health.status, 'ok');
    const size = statSync(s.modelFile).size;
    assert.ok(size < 1024 * 1024, `the model is ${size} bytes`);
    console.log(`# model ${(size / 1024).toFixed(0)} KB, written and served in ${s.startMs} ms`);
    assert.ok(groupAlive(s.pid), 'running');
  } finally {
    await s.close();
  }
  assert.equal(groupAlive(s.pid), false, 'no process of its group is left');
  assert.equal(existsSync(s.modelFile), false, 'the model was removed');
  await assert.rejects(fetch(`${s.url}/health`), 'nothing listens there any more');
});
