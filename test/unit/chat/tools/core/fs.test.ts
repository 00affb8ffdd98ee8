// read_file and list_directory over a real folder (src/chat/tools/core/fs.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listDirectoryForModel, readFileForModel } from '../../../../../src/chat/tools/core/fs';
import { useToolWorkspace } from '../../../../support/toolWorkspace';

const w = useToolWorkspace();
const at = (p: string) => w.at(p);

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
