// Numeric settings read from a hand-edited settings.json: package.json's ranges are only advice to
// the settings editor, so readSettings() bounds them itself (src/platform/settingValues.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedNumber } from '../../../src/platform/settingValues';

void test('a poll interval of 0 or below is raised to the minimum, so polling never runs in a tight loop', () => {
  assert.equal(boundedNumber(0, 5, 0.1, 600), 0.1);
  assert.equal(boundedNumber(-3, 5, 0.1, 600), 0.1);
});

void test('values above the maximum are lowered to it', () => {
  assert.equal(boundedNumber(1e9, 2, 0, 10, true), 10);
});

void test('a value that is not a number falls back to the default instead of becoming NaN (an instant timeout)', () => {
  assert.equal(boundedNumber('abc', 60, 1, 600), 60);
  assert.equal(boundedNumber(null, 60, 1, 600), 60);
  assert.equal(boundedNumber(undefined, 60, 1, 600), 60);
  assert.equal(boundedNumber('', 60, 1, 600), 60);
  assert.equal(boundedNumber(Number.NaN, 60, 1, 600), 60);
  assert.equal(boundedNumber({}, 60, 1, 600), 60);
});

void test('a quoted number is read as that number; integer settings are rounded', () => {
  assert.equal(boundedNumber('30', 60, 1, 600), 30);
  assert.equal(boundedNumber(2.6, 2, 0, 10, true), 3);
  assert.equal(boundedNumber(7.5, 5, 0.1, 600), 7.5);
});
