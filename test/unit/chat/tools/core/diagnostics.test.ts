import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { diagnosticsText } from '../../../../../src/chat/tools/core/diagnostics';
import type { DiagnosticInfo, ToolHost } from '../../../../../src/chat/tools/core/host';
import { resolveWorkspacePath } from '../../../../../src/chat/tools/core/paths';
import { nodeToolHost } from '../../../../support/nodeToolHost';
import { tempWorkspace } from '../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'a.ts': 'x', '.env': 'K=1' });
});
after(() => ws.dispose());

const host = (list: DiagnosticInfo[]): ToolHost => ({
  ...nodeToolHost([{ name: 'ws', path: ws.root }]),
  diagnostics: () => list,
});
const d = (rel: string, severity: DiagnosticInfo['severity'], message: string): DiagnosticInfo => ({
  absolute: path.isAbsolute(rel) ? rel : path.join(ws.root, rel),
  line: 1,
  column: 2,
  severity,
  message,
});

void test('problems are listed errors first, only those inside the workspace', async () => {
  const out = await diagnosticsText(
    host([d('a.ts', 'warning', 'unused'), d('a.ts', 'error', 'bad type'), d('/elsewhere/lib.ts', 'error', 'outside')]),
    undefined,
  );
  assert.equal(out, '2 problem(s) in the workspace:\na.ts:1:2: error: bad type\na.ts:1:2: warning: unused');
});

void test("a secret file's problems are counted, never quoted", async () => {
  const out = await diagnosticsText(host([d('.env', 'error', 'Unknown word: sk-secret')]), undefined);
  assert.ok(!out.includes('sk-secret'), out);
  assert.match(out, /No errors or warnings in the workspace\.\n\(1 problem\(s\) in files that may hold secrets/);
});

void test('one file is named in the answer; a host without diagnostics says so', async () => {
  const file = await resolveWorkspacePath('a.ts', [{ name: 'ws', path: ws.root }]);
  assert.equal(await diagnosticsText(host([]), file), 'No errors or warnings in a.ts.');
  assert.equal(
    await diagnosticsText(nodeToolHost([{ name: 'ws', path: ws.root }]), file),
    'Diagnostics are not available here.',
  );
});
