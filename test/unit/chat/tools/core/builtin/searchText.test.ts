import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { searchText } from '../../../../../../src/chat/tools/core/builtin/searchText';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'const Needle = 1;\nother\n', 'src/b.md': 'a needle here\n' });
});
after(() => ws.dispose());

void test('search_text finds the text with file and line, case-insensitive by default', async () => {
  const out = await run(searchText(kitFor(ws.root)), { query: 'needle' });
  assert.ok(out.includes('src/a.ts:1'), out);
  assert.ok(out.includes('src/b.md:1'), out);
});

void test('search_text honours caseSensitive, include and regular expressions', async () => {
  const tool = searchText(kitFor(ws.root));
  const exact = await run(tool, { query: 'Needle', caseSensitive: true });
  assert.ok(exact.includes('src/a.ts') && !exact.includes('src/b.md'), exact);
  const onlyMd = await run(tool, { query: 'needle', include: '*.md' });
  assert.ok(onlyMd.includes('src/b.md') && !onlyMd.includes('src/a.ts'), onlyMd);
  const re = await run(tool, { query: 'N[e]+dle', isRegex: true, caseSensitive: true });
  assert.ok(re.includes('src/a.ts'), re);
});

void test('search_text refuses an empty query and an invalid regular expression', async () => {
  const tool = searchText(kitFor(ws.root));
  await assert.rejects(async () => prepare(tool, { query: '' }));
  await assert.rejects(async () => prepare(tool, { query: '(', isRegex: true }));
});
