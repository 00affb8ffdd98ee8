import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { applyTextEdit } from '../../../../../src/chat/tools/core/edit';
import { listDirectoryForModel, readFileForModel } from '../../../../../src/chat/tools/core/fs';
import { compileGlob } from '../../../../../src/chat/tools/core/glob';
import { resolveWorkspacePath, type WorkspaceRoot } from '../../../../../src/chat/tools/core/paths';
import { ToolError } from '../../../../../src/chat/tools/core/runner';
import { findFilesForModel, searchTextForModel } from '../../../../../src/chat/tools/core/search';

let ws: string;
let roots: WorkspaceRoot[];
before(async () => {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-fs-')));
  ws = path.join(tmp, 'ws');
  await fs.mkdir(path.join(ws, 'src', 'deep'), { recursive: true });
  await fs.mkdir(path.join(ws, '.git'));
  await fs.mkdir(path.join(ws, 'node_modules', 'pkg'), { recursive: true });
  await fs.mkdir(path.join(tmp, 'elsewhere'));
  await fs.writeFile(path.join(tmp, 'elsewhere', 'hidden.ts'), 'const needle = 1;\n');
  await fs.symlink(path.join(tmp, 'elsewhere'), path.join(ws, 'linked'));
  await fs.writeFile(
    path.join(ws, 'src', 'a.ts'),
    Array.from({ length: 30 }, (_, i) => `line ${i + 1} needle`).join('\n') + '\n',
  );
  await fs.writeFile(path.join(ws, 'src', 'deep', 'b.tsx'), 'const needle = 2;\n');
  await fs.writeFile(path.join(ws, '.git', 'HEAD'), 'needle\n');
  await fs.writeFile(path.join(ws, 'node_modules', 'pkg', 'index.ts'), 'needle\n');
  await fs.writeFile(path.join(ws, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
  roots = [{ name: 'ws', path: ws }];
});
after(async () => fs.rm(path.dirname(ws), { recursive: true, force: true }));

const at = (p: string) => resolveWorkspacePath(p, roots);

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

void test('find_files skips .git, node_modules and symlinked folders unless node_modules is asked for', async () => {
  const out = await findFilesForModel(roots, '*.ts');
  assert.match(out, /^1 file\(s\) match "\*\.ts":\nsrc\/a\.ts$/);
  assert.match(await findFilesForModel(roots, 'node_modules/**/*.ts'), /node_modules\/pkg\/index\.ts/);
});

void test('read_file returns the asked line range and says where the file continues', async () => {
  const out = await readFileForModel(await at('src/a.ts'), { startLine: 5, endLine: 6 });
  assert.equal(
    out,
    'File src/a.ts, lines 5-6 of 30 (the file continues to line 30; read more with startLine 7):\nline 5 needle\nline 6 needle',
  );
  await assert.rejects(readFileForModel(await at('src/a.ts'), { startLine: 31 }), /past the end.*30 lines/);
  await assert.rejects(readFileForModel(await at('image.png')), /binary file/);
  await assert.rejects(readFileForModel(await at('src/none.ts')), /does not exist/);
  await assert.rejects(readFileForModel(await at('src')), /is a folder/);
});

void test('unsaved editor text is what read_file returns', async () => {
  const out = await readFileForModel(await at('src/a.ts'), { editorText: 'unsaved\ntext' });
  assert.equal(out, 'File src/a.ts, lines 1-2 of 2:\nunsaved\ntext');
});

void test('list_directory puts folders first and never shows .git', async () => {
  const out = await listDirectoryForModel(await at('.'));
  assert.match(out, /^Folder \. \(4 entries\):\nnode_modules\/\nsrc\/\nimage\.png\nlinked \(symlink\)/);
  assert.doesNotMatch(out, /\.git/);
});

void test('search_text finds literal text outside skipped folders and rejects a broken regex', async () => {
  const out = await searchTextForModel(roots, { query: 'needle = ', include: '**/*.tsx' });
  assert.equal(out, '1 match(es) for "needle = ":\nsrc/deep/b.tsx:1: const needle = 2;');
  const capped = await searchTextForModel(roots, { query: 'needle', maxResults: 3 });
  assert.match(capped, /^3 match\(es\)[\s\S]*stopped early \(reached 3 matches\)/);
  await assert.rejects(searchTextForModel(roots, { query: 'needle(', isRegex: true }), /regular expression is invalid/);
  assert.match(await searchTextForModel(roots, { query: 'line \\d+0 needle', isRegex: true }), /^3 match/);
});

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

void test('a catastrophic regex from the model stops at the time budget without freezing the event loop', async () => {
  await fs.writeFile(path.join(ws, 'src', 'evil.txt'), `${'a'.repeat(40)}!\n`);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    const out = await searchTextForModel(roots, {
      query: '(a+)+$',
      isRegex: true,
      include: '**/evil.txt',
      budgetMs: 400,
    });
    assert.match(
      out,
      /^No matches for \/\(a\+\)\+\$\/ in 1 file\(s\)\.\n… search stopped early \(time limit of 0.4 s reached/,
    );
  } finally {
    clearInterval(timer);
    await fs.rm(path.join(ws, 'src', 'evil.txt'));
  }
  assert.ok(ticks > 3, `the event loop kept running during the search (${ticks} timer ticks)`);
});

void test('a read stops at a whole line before the character budget and says where to go on', async () => {
  const long = Array.from({ length: 1000 }, (_, i) => `${String(i + 1).padStart(4, '0')} ${'x'.repeat(95)}`).join('\n');
  const out = await readFileForModel(await at('src/a.ts'), { editorText: long });
  const header = out.split('\n')[0] ?? '';
  const m =
    /^File src\/a\.ts, lines 1-(\d+) of 1000 \(the file continues to line 1000; read more with startLine (\d+)\):$/.exec(
      header,
    );
  assert.ok(m, `header: ${header}`);
  const shown = out.split('\n').slice(1);
  assert.equal(shown.length, Number(m[1]), 'the header names the last line shown');
  assert.equal(Number(m[2]), Number(m[1]) + 1, 'it continues right after');
  assert.ok(out.length <= 30_200, `stayed within the budget (${out.length} chars)`);
});
