import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostMessageSchema, parseWebviewMessage } from '../../../../src/shared/protocol';

void test('unknown message types and missing request ids are refused', () => {
  assert.equal(parseWebviewMessage({ type: 'chat/explode' }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/cancel' }).ok, false);
  assert.equal(parseWebviewMessage(null).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/cancel', requestId: 'r9' }).ok, true);
});

void test('no host message schema has a field that could carry the API key', () => {
  const text = JSON.stringify(hostMessageSchema.def.options.map((o) => Object.keys(o.shape)));
  assert.doesNotMatch(text, /key|secret|token"/i);
});
