// The context around the cursor: the budget, line-boundary cuts, snippets and the one-line or
// block decision; a remembered secret never leaves in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assembleContext, wantsBlock } from '../../../../../src/completion/inline/core/context';
import { rememberSecret } from '../../../../../src/shared/redact';

const doc = (text: string, offset = text.indexOf('|')) => ({
  text: text.replace('|', ''),
  offset,
  path: 'src/a.ts',
  languageId: 'typescript',
});

void describe('assembleContext', () => {
  void it('prefix and suffix around the cursor', () => {
    const c = assembleContext(doc('const a = |;\nconst b = 2;\n'));
    assert.equal(c.prefix, 'const a = ');
    assert.equal(c.suffix, ';\nconst b = 2;\n');
    assert.equal(c.path, 'src/a.ts');
    assert.equal(c.languageId, 'typescript');
  });
  void it('a long file is cut to the budget at line boundaries', () => {
    const lines = Array.from({ length: 2000 }, (_, k) => `line${k} = ${k};`);
    const text = `${lines.slice(0, 1000).join('\n')}\n|${lines.slice(1000).join('\n')}`;
    const c = assembleContext(doc(text), [], 256);
    assert.ok(c.prefix.length <= 256 * 4 * 0.65);
    assert.ok(c.prefix.startsWith('line'), c.prefix.slice(0, 20));
    assert.ok(c.prefix.endsWith('line999 = 999;\n'));
    assert.ok(c.suffix.length <= 256 * 4 * 0.2);
    assert.ok(c.suffix.endsWith('\n'));
  });
  void it('snippets from other files, at most three, not the file itself, within the budget', () => {
    const other = (p: string) => ({
      path: p,
      text: Array.from({ length: 100 }, (_, k) => `${p}:${k}`).join('\n'),
      focus: 0,
    });
    const c = assembleContext(doc('x|'), [
      other('src/a.ts'),
      other('b.ts'),
      other('c.ts'),
      other('d.ts'),
      other('e.ts'),
    ]);
    assert.deepEqual(
      c.snippets.map((s) => s.path),
      ['b.ts', 'c.ts', 'd.ts'],
    );
    assert.equal(c.snippets[0]!.text.split('\n').length, 16);
  });
  void it('the API key is masked in everything sent', () => {
    rememberSecret('sk-test-secret-1234567890');
    const c = assembleContext(doc('const key = "sk-test-secret-1234567890";\n|'), [
      { path: 'b.ts', text: 'token = "sk-test-secret-1234567890"' },
    ]);
    assert.ok(!c.prefix.includes('sk-test-secret-1234567890'));
    assert.ok(!c.snippets[0]!.text.includes('sk-test-secret-1234567890'));
  });
});

void describe('wantsBlock', () => {
  void it('a block on an empty line or after an opener', () => {
    assert.equal(wantsBlock('    ', ''), true);
    assert.equal(wantsBlock('function f() {', ''), true);
    assert.equal(wantsBlock('def f(x):', ''), true);
    assert.equal(wantsBlock('items.map((x) =>', ')'), true);
  });
  void it('one line inside a line, or with code after the cursor', () => {
    assert.equal(wantsBlock('const a = ', ''), false);
    assert.equal(wantsBlock('const a: ', ''), false);
    assert.equal(wantsBlock('    ', 'return x;'), false);
  });
});
