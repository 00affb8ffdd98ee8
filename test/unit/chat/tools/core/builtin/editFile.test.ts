import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { editFile } from '../../../../../../src/chat/tools/core/builtin/editFile';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'a.ts': 'let x = 1;\nlet y = 1;\n', '.env': 'KEY=old\n' });
});
after(() => ws.dispose());

void test('edit_file replaces the one occurrence of oldText and says what changed', async () => {
  const tool = editFile(kitFor(ws.root));
  const out = await run(tool, { path: 'a.ts', oldText: 'let x = 1;', newText: 'let x = 2;' });
  assert.match(out, /Edited a\.ts/);
  assert.equal(await fs.readFile(path.join(ws.root, 'a.ts'), 'utf8'), 'let x = 2;\nlet y = 1;\n');
});

void test('edit_file refuses text that is missing or not unique, unless replaceAll', async () => {
  const tool = editFile(kitFor(ws.root));
  await assert.rejects(run(tool, { path: 'a.ts', oldText: 'absent', newText: 'z' }));
  await assert.rejects(run(tool, { path: 'a.ts', oldText: 'let ', newText: 'var ' }));
  assert.equal(await fs.readFile(path.join(ws.root, 'a.ts'), 'utf8'), 'let x = 2;\nlet y = 1;\n', 'nothing applied');
  await fs.writeFile(path.join(ws.root, 'a.ts'), 'a = 1;\nb = 1;\n');
  await run(tool, { path: 'a.ts', oldText: '= 1;', newText: '= 3;', replaceAll: true });
  assert.equal(await fs.readFile(path.join(ws.root, 'a.ts'), 'utf8'), 'a = 3;\nb = 3;\n');
});

void test('edit_file on a secret file reads nothing before approval and asks every time', async () => {
  const tool = editFile(kitFor(ws.root));
  const prepared = await prepare(tool, { path: '.env', oldText: 'not there', newText: 'x' });
  assert.equal(prepared.guard, 'secrets');
  assert.ok(!prepared.summary?.includes('KEY=old'), prepared.summary);
  await run(tool, { path: '.env', oldText: 'KEY=old', newText: 'KEY=new' });
  assert.equal(await fs.readFile(path.join(ws.root, '.env'), 'utf8'), 'KEY=new\n');
});
