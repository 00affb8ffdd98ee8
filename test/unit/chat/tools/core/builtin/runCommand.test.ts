import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCommand } from '../../../../../../src/chat/tools/core/builtin/runCommand';
import { kitFor, prepare, run, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'sub/f.txt': 'in sub' });
});
after(() => ws.dispose());

const posix = process.platform !== 'win32';

void test(
  'run_command runs in the workspace folder, or the cwd given inside it, and reports output and exit code',
  { skip: !posix },
  async () => {
    const tool = runCommand(kitFor(ws.root));
    assert.equal(tool.readOnly, false);
    const out = await run(tool, { command: 'echo hello && exit 3' });
    assert.match(out, /hello/);
    assert.match(out, /3/);
    assert.match(await run(tool, { command: 'cat f.txt', cwd: 'sub' }), /in sub/);
  },
);

void test('run_command shows the whole command for approval and refuses a cwd outside the workspace', async () => {
  const tool = runCommand(kitFor(ws.root));
  const prepared = await prepare(tool, { command: 'echo one' });
  assert.ok(prepared.summary?.includes('echo one'), prepared.summary);
  await assert.rejects(async () => prepare(tool, { command: 'ls', cwd: '..' }));
  await assert.rejects(async () => prepare(tool, { command: '' }));
});
