import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getSelection } from '../../../../../../src/chat/tools/core/builtin/getSelection';
import type { SelectionInfo } from '../../../../../../src/chat/tools/core/host';
import { kitFor, run, tempWorkspace } from '../../../../../support/builtinTool';
import * as path from 'node:path';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'x', '.env': 'K=1' });
});
after(() => ws.dispose());

const sel = (over: Partial<SelectionInfo>): SelectionInfo => ({
  absolute: path.join(ws.root, 'src/a.ts'),
  label: 'src/a.ts',
  language: 'typescript',
  text: 'const x = 1;',
  startLine: 3,
  endLine: 3,
  ...over,
});

void test('get_selection gives the selected text with its file and lines', async () => {
  const out = await run(getSelection(kitFor(ws.root, { selection: () => sel({}) })), {});
  assert.equal(out, 'Selection in src/a.ts, lines 3-3 (typescript):\nconst x = 1;');
});

void test('get_selection says when nothing is selected or no editor is active', async () => {
  assert.match(
    await run(getSelection(kitFor(ws.root, { selection: () => sel({ text: '' }) })), {}),
    /nothing is selected/,
  );
  assert.match(await run(getSelection(kitFor(ws.root, { selection: () => undefined })), {}), /No editor is active/);
});

void test('get_selection never shares a selection in a secret file', async () => {
  const secret = sel({ absolute: path.join(ws.root, '.env'), label: '.env', text: 'K=1' });
  const out = await run(getSelection(kitFor(ws.root, { selection: () => secret })), {});
  assert.ok(!out.includes('K=1'), out);
  assert.match(out, /may hold secrets/);
});
