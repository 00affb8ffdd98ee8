import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as path from 'node:path';
import { getDiagnostics } from '../../../../../../src/chat/tools/core/builtin/getDiagnostics';
import type { DiagnosticInfo } from '../../../../../../src/chat/tools/core/host';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'x', 'src/b.ts': 'y' });
});
after(() => ws.dispose());

void test('get_diagnostics asks the host for one file when given a path, for all without', async () => {
  const asked: (string | undefined)[] = [];
  const diagnostics = (abs?: string): DiagnosticInfo[] => {
    asked.push(abs);
    return [{ absolute: path.join(ws.root, 'src/a.ts'), line: 2, column: 1, severity: 'error', message: 'bad' }];
  };
  const tool = getDiagnostics(kitFor(ws.root, { diagnostics }));
  assert.match(await run(tool, { path: 'src/a.ts' }), /1 problem\(s\) in src\/a\.ts:\nsrc\/a\.ts:2:1: error: bad/);
  assert.match(await run(tool, {}), /in the workspace/);
  assert.deepEqual(asked, [path.join(ws.root, 'src/a.ts'), undefined]);
});

void test('get_diagnostics refuses a path outside the workspace', async () => {
  await assert.rejects(async () =>
    prepare(getDiagnostics(kitFor(ws.root, { diagnostics: () => [] })), { path: '../x.ts' }),
  );
});
