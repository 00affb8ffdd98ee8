import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveModel } from '../../../src/shared/model';

void test("the conversation's own model wins over the default, trimmed", () => {
  assert.equal(effectiveModel(' gw-chat ', 'gw-default'), 'gw-chat');
});

void test('no model of its own (empty or absent) takes the default, trimmed; nothing at all stays empty', () => {
  assert.equal(effectiveModel('', ' gw-default\n'), 'gw-default');
  assert.equal(effectiveModel(undefined, 'gw-default'), 'gw-default');
  assert.equal(effectiveModel('', ''), '');
});
