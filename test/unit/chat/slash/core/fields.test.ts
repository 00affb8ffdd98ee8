// Typed frontmatter fields: wrong types are problems at their key's line, never throws.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldReader, keyLine } from '../../../../../src/chat/slash/core/fields';

const TEXT = '---\na: 1\n"b": [x, 2]\nc: {k: v}\nd: "true"\n---\nbody a: no\n';

void test('keyLine finds a top-level key in the frontmatter only', () => {
  assert.equal(keyLine(TEXT, 'a'), 2);
  assert.equal(keyLine(TEXT, 'b'), 3);
  assert.equal(keyLine(TEXT, 'body a'), 1, 'the body is not searched');
  assert.equal(keyLine(TEXT, ''), 1);
});

void test('strings, booleans, lists and maps are read; the wrong type is a problem with its line', () => {
  const f = new FieldReader(TEXT, { a: 1, b: ['x', 2], c: { k: 'v' }, d: 'true' });
  assert.equal(f.string('a'), '1');
  assert.deepEqual(f.list('b'), ['x', '2']);
  assert.deepEqual(f.stringMap('c'), { k: 'v' });
  assert.equal(f.boolean('d'), true);
  assert.equal(f.string('c'), undefined);
  assert.equal(f.list('c'), undefined);
  assert.equal(f.boolean('a'), undefined);
  assert.deepEqual(
    f.problems.map((p) => p.line),
    [4, 4, 2],
  );
  assert.deepEqual(new FieldReader('', { t: 'Read Grep, Glob' }).list('t', true), ['Read', 'Grep', 'Glob']);
});
