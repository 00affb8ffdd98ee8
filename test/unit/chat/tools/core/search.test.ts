// find_files and search_text over a real folder (src/chat/tools/core/search.ts).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { findFilesForModel, searchTextForModel } from '../../../../../src/chat/tools/core/search';
import { useToolWorkspace } from '../../../../support/toolWorkspace';

const w = useToolWorkspace();

void test('find_files skips .git, node_modules and symlinked folders unless node_modules is asked for', async () => {
  const out = await findFilesForModel(w.roots, '*.ts');
  assert.match(out, /^1 file\(s\) match "\*\.ts":\nsrc\/a\.ts$/);
  assert.match(await findFilesForModel(w.roots, 'node_modules/**/*.ts'), /node_modules\/pkg\/index\.ts/);
});

void test('search_text finds literal text outside skipped folders and rejects a broken regex', async () => {
  const out = await searchTextForModel(w.roots, { query: 'needle = ', include: '**/*.tsx' });
  assert.equal(out, '1 match(es) for "needle = ":\nsrc/deep/b.tsx:1: const needle = 2;');
  const capped = await searchTextForModel(w.roots, { query: 'needle', maxResults: 3 });
  assert.match(capped, /^3 match\(es\)[\s\S]*stopped early \(reached 3 matches\)/);
  await assert.rejects(
    searchTextForModel(w.roots, { query: 'needle(', isRegex: true }),
    /regular expression is invalid/,
  );
  assert.match(await searchTextForModel(w.roots, { query: 'line \\d+0 needle', isRegex: true }), /^3 match/);
});

void test('a catastrophic regex from the model stops at the time budget without freezing the event loop', async () => {
  await fs.writeFile(path.join(w.ws, 'src', 'evil.txt'), `${'a'.repeat(40)}!\n`);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    const out = await searchTextForModel(w.roots, {
      query: '(a+)+$',
      isRegex: true,
      include: '**/evil.txt',
      budgetMs: 1500,
    });
    assert.match(
      out,
      /^No matches for \/\(a\+\)\+\$\/ in 1 file\(s\)\.\n… search stopped early \(time limit of 1.5 s reached/,
    );
  } finally {
    clearInterval(timer);
    await fs.rm(path.join(w.ws, 'src', 'evil.txt'));
  }
  assert.ok(ticks > 3, `the event loop kept running during the search (${ticks} timer ticks)`);
});
