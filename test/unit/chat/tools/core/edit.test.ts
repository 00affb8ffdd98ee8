// edit_file's text replacement (src/chat/tools/core/edit.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyTextEdit } from '../../../../../src/chat/tools/core/edit';

void test('edit_file needs a unique match, keeps CRLF line ends, and explains a miss', () => {
  assert.equal(applyTextEdit('a\nb\n', 'f', { oldText: 'b', newText: 'c' }), 'a\nc\n');
  assert.throws(() => applyTextEdit('x x', 'f', { oldText: 'x', newText: 'y' }), /occurs 2 times/);
  assert.equal(applyTextEdit('x x', 'f', { oldText: 'x', newText: 'y', replaceAll: true }), 'y y');
  assert.equal(applyTextEdit('one\r\ntwo\r\n', 'f', { oldText: 'one\ntwo', newText: 'uno\ndos' }), 'uno\r\ndos\r\n');
  assert.throws(
    () => applyTextEdit('  indented', 'f', { oldText: 'indented ', newText: 'x' }),
    /not found.*whitespace/,
  );
  assert.throws(() => applyTextEdit('abc', 'f', { oldText: '', newText: 'x' }), /oldText is empty/);
  assert.equal(
    applyTextEdit('price: $1', 'f', { oldText: '$1', newText: '$$2' }),
    'price: $$2',
    'replacement text is literal, not a pattern',
  );
});
