import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listDirectory } from '../../../../../../src/chat/tools/core/builtin/listDirectory';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'a', 'README.md': 'r', 'dist/out.js': 'o', '.gitignore': 'dist/\n' });
});
after(() => ws.dispose());

void test('list_directory lists the top with folders marked, leaving out what .gitignore hides', async () => {
  const out = await run(listDirectory(kitFor(ws.root)), {});
  assert.ok(out.includes('src/'), out);
  assert.ok(out.includes('README.md'), out);
  assert.ok(!out.includes('dist'), out);
});

void test('list_directory lists a sub-folder and refuses one outside the workspace', async () => {
  const tool = listDirectory(kitFor(ws.root));
  assert.ok((await run(tool, { path: 'src' })).includes('a.ts'));
  await assert.rejects(async () => prepare(tool, { path: '..' }));
});
