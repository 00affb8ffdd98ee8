import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../../src/shared/ids';
import { id } from '../../../src/shared/protocol/fields';

void test('an id starts with its prefix and is new each time', () => {
  const ids = Array.from({ length: 1000 }, () => newId('req-'));
  assert.equal(new Set(ids).size, ids.length);
  for (const i of ids) assert.match(i, /^req-[0-9a-z]{9,}$/);
  assert.match(newId(), /^[0-9a-z]+$/);
});

void test('an id fits the protocol id field (1 to 200 characters)', () => {
  assert.equal(id.safeParse(newId()).success, true);
  assert.equal(id.safeParse(newId('x'.repeat(150))).success, true);
});
