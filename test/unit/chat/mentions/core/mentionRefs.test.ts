import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IssuedRefs, isUncReference } from '../../../../../src/chat/mentions/core/mentionRefs';

void test('only issued references resolve; a confirmed one stays confirmed; the oldest go first past the bound', () => {
  const refs = new IssuedRefs(3);
  refs.issue('file:///w/a.ts', 'listed');
  refs.issue('file:///tmp/outside.txt', 'user');
  refs.issue('file:///tmp/outside.txt', 'listed');
  assert.equal(refs.origin('file:///w/a.ts'), 'listed');
  assert.equal(refs.origin('file:///tmp/outside.txt'), 'user');
  assert.equal(refs.origin('file:///etc/passwd'), undefined);
  refs.issue('file:///w/b.ts', 'listed');
  refs.issue('file:///w/c.ts', 'listed');
  assert.equal(refs.origin('file:///w/a.ts'), undefined, 'the oldest was dropped');
  refs.issue('', 'user');
  assert.equal(refs.origin(''), undefined);
});

void test('UNC paths and file URIs with a host are recognised', () => {
  assert.ok(isUncReference('file://server/share/x.txt'));
  assert.ok(isUncReference('x', '\\\\server\\share\\x.txt'));
  assert.ok(isUncReference('x', '//server/share/x.txt'));
  assert.ok(isUncReference('x', '\\\\?\\UNC\\server\\share'));
  assert.ok(!isUncReference('file:///home/u/x.txt', '/home/u/x.txt'));
  assert.ok(!isUncReference('file:///c%3A/x.txt', 'c:\\x.txt'));
  assert.ok(!isUncReference('file://localhost/home/u/x.txt', '/home/u/x.txt'));
});
