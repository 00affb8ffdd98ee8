import assert from 'node:assert/strict';
import { test } from 'node:test';
import { id, requestId } from '../../../../src/shared/protocol/fields';
import { accepts, refusal } from '../../../support/protocolCheck';

void test('an id is 1 to 200 characters of text', () => {
  for (const ok of ['a', 'c'.repeat(200), 'conv-1 ü']) accepts(id, ok);
  assert.match(refusal(id, ''), /^: Too small: expected string to have >=1 characters/);
  assert.match(refusal(id, 'c'.repeat(201)), /^: Too big: expected string to have <=200 characters/);
  assert.match(refusal(id, 42), /^: Invalid input: expected string, received number/);
  assert.match(refusal(id, undefined), /^: Invalid input: expected string, received undefined/);
});

void test('a request id is 1 to 100 characters of text', () => {
  for (const ok of ['r', 'r'.repeat(100)]) accepts(requestId, ok);
  assert.match(refusal(requestId, ''), /^: Too small/);
  assert.match(refusal(requestId, 'r'.repeat(101)), /^: Too big: expected string to have <=100 characters/);
  assert.match(refusal(requestId, null), /^: Invalid input: expected string, received null/);
});
