import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeBody } from '../../../../src/api/models/mergeBody';

void test('mergeBody: objects merge, null deletes, arrays and scalars replace, inputs unchanged', () => {
  const base = { temperature: 0.7, a: { b: 1, c: [1] }, s: 'x' };
  const out = mergeBody(base, { temperature: null, a: { c: [2], d: null, e: { f: 1 } }, s: 'y', n: null });
  assert.deepEqual(out, { a: { b: 1, c: [2], e: { f: 1 } }, s: 'y' });
  assert.deepEqual(base, { temperature: 0.7, a: { b: 1, c: [1] }, s: 'x' });
});
