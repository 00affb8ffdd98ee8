import assert from 'node:assert/strict';
import { test } from 'node:test';
import { raceAbort, throwIfAborted, ToolRunStopped } from '../../../../../src/chat/tools/core/seam';

void test('a stopped run keeps the results of the calls that finished before Stop', () => {
  const results = [{ role: 'tool' as const, tool_call_id: 'c1', content: 'done' }];
  const e = new ToolRunStopped(results);
  assert.ok(e instanceof Error);
  assert.deepEqual(e.results, results);
});

void test('throwIfAborted throws an AbortError only once the signal aborted', () => {
  const c = new AbortController();
  assert.doesNotThrow(() => throwIfAborted(c.signal));
  c.abort();
  assert.throws(() => throwIfAborted(c.signal), { name: 'AbortError' });
});

void test('raceAbort settles with the promise, or with an AbortError as soon as Stop comes', async () => {
  assert.equal(await raceAbort(Promise.resolve(7), new AbortController().signal), 7);
  await assert.rejects(raceAbort(Promise.reject(new Error('no')), new AbortController().signal), /no/);
  const c = new AbortController();
  const never = new Promise<number>(() => undefined);
  const raced = raceAbort(never, c.signal);
  c.abort();
  await assert.rejects(raced, { name: 'AbortError' });
  const done = new AbortController();
  done.abort();
  await assert.rejects(raceAbort(Promise.resolve(1), done.signal), { name: 'AbortError' });
});
