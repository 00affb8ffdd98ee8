// The strings model (webview/chat/models/strings.ts): the host's translations, English until then.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStringsModel } from '../../../../../webview/chat/models/strings';

void test('t fills the numbered places, in the host’s language once it is sent', () => {
  const s = createStringsModel();
  assert.equal(s.t('Tool call: {0}', 'read_file'), 'Tool call: read_file');
  assert.equal(s.t('Tool call: {0}'), 'Tool call: {0}', 'a missing argument stays a place');
  s.strings.value = { 'Tool call: {0}': '工具调用：{0}' };
  assert.equal(s.t('Tool call: {0}', 'read_file'), '工具调用：read_file');
});
