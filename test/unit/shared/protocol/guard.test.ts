import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage } from '../../../../src/shared/protocol';
import { asMessage } from '../../../../src/shared/protocol/guard';

void test('a webview takes any object with a string type as a message, for its table to match or ignore', () => {
  const notice = { type: 'chat/notice', level: 'info', text: 'hi' };
  assert.equal(asMessage<HostMessage>(notice), notice);
  assert.deepEqual(asMessage<HostMessage>({ type: 'some/future' }), { type: 'some/future' });
});

void test('what is not a message at all is kept out: no object, no type, a type that is not text', () => {
  for (const data of [null, undefined, 'chat/notice', 42, [], {}, { type: 7 }, { kind: 'chat/notice' }]) {
    assert.equal(asMessage<HostMessage>(data), undefined, JSON.stringify(data));
  }
});
