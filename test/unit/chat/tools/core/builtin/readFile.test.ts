import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFile } from '../../../../../../src/chat/tools/core/builtin/readFile';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'one\ntwo\nthree\nfour\n', '.env': 'KEY=1\n' });
});
after(() => ws.dispose());

void test('read_file returns the file, and only the asked lines when given', async () => {
  const tool = readFile(kitFor(ws.root));
  assert.equal(tool.definition.function.name, 'read_file');
  assert.equal(tool.readOnly, true);
  const all = await run(tool, { path: 'src/a.ts' });
  assert.ok(all.includes('one') && all.includes('four'), all);
  const part = await run(tool, { path: 'src/a.ts', startLine: 2, endLine: 3 });
  assert.ok(part.includes('two') && part.includes('three'), part);
  assert.ok(!part.includes('one') && !part.includes('four'), part);
});

void test('read_file refuses a path outside the workspace before anything is read', async () => {
  await assert.rejects(async () => prepare(readFile(kitFor(ws.root)), { path: '../outside.txt' }));
});

void test('read_file of a secret file asks every time (a guard), and a plain file does not', async () => {
  const tool = readFile(kitFor(ws.root));
  assert.equal((await prepare(tool, { path: '.env' })).guard, 'secrets');
  assert.equal((await prepare(tool, { path: 'src/a.ts' })).guard, undefined);
});

void test('read_file of a missing file fails with a message the model reads', async () => {
  await assert.rejects(run(readFile(kitFor(ws.root)), { path: 'src/missing.ts' }));
});
