import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findFiles } from '../../../../../../src/chat/tools/core/builtin/findFiles';
import { kitFor, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'a', 'src/deep/b.ts': 'b', 'c.json': '{}', 'node_modules/x/i.ts': 'x' });
});
after(() => ws.dispose());

void test('find_files finds by glob at any depth and skips node_modules', async () => {
  const out = await run(findFiles(kitFor(ws.root)), { pattern: '*.ts' });
  assert.ok(out.includes('src/a.ts') && out.includes('src/deep/b.ts'), out);
  assert.ok(!out.includes('node_modules') && !out.includes('c.json'), out);
});

void test('find_files stops at maxResults', async () => {
  const out = await run(findFiles(kitFor(ws.root)), { pattern: '**/*.ts', maxResults: 1 });
  assert.equal(out.split('\n').filter((l) => l.endsWith('.ts')).length, 1, out);
});
