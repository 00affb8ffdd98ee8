// Glob matching for find_files and search_text's include (src/chat/tools/core/glob.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGlob } from '../../../../../src/chat/tools/core/glob';
import { ToolError } from '../../../../../src/chat/tools/core/runner';

void test('globs: ** crosses folders, * does not, braces alternate, a bare pattern matches at any depth', () => {
  assert.equal(compileGlob('src/**/*.ts').test('src/deep/x.ts'), true, 'src/**/*.ts vs src/deep/x.ts');
  assert.equal(compileGlob('src/**/*.ts').test('src/x.ts'), true, 'src/**/*.ts vs src/x.ts');
  assert.equal(compileGlob('src/*.ts').test('src/deep/x.ts'), false, 'src/*.ts vs src/deep/x.ts');
  assert.equal(compileGlob('*.{ts,tsx}').test('src/deep/b.tsx'), true, '*.{ts,tsx} vs src/deep/b.tsx');
  assert.equal(compileGlob('*.ts').test('src/a.tsx'), false, '*.ts vs src/a.tsx');
  assert.equal(compileGlob('file?.md').test('docs/file1.md'), true, 'file?.md vs docs/file1.md');
  assert.equal(compileGlob('{src,lib}/**/*.{ts,js}').test('lib/a/b/c.js'), true, 'nested alternatives');
  assert.equal(compileGlob('[!a]*.ts').test('src/b.ts'), true, 'negated class');
  assert.equal(compileGlob('[!a]*.ts').test('src/a.ts'), false, 'negated class excludes');
  assert.equal(compileGlob('SRC/**/X.TS').test('src/deep/x.ts'), true, 'case-insensitive');
  assert.throws(() => compileGlob('*.{ts'), ToolError);
  assert.throws(() => compileGlob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}'), /more than 64 alternatives/);
});

void test('a glob built to backtrack is matched in linear-ish time, not hung on', () => {
  const evil = compileGlob('**/*a*a*a*a*a*a*a*a*a*a*a*a*b');
  const path = `${'a/'.repeat(40)}${'a'.repeat(200)}`;
  assert.equal(evil.test(path), false, 'no b, no match');
  assert.equal(
    compileGlob('**/**/**/**/**/**/**/*.ts').test(`${'d/'.repeat(100)}x.ts`),
    true,
    'collapsed **/ runs still match',
  );
});
