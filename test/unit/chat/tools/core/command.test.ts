import assert from 'node:assert/strict';
import * as os from 'node:os';
import { test } from 'node:test';
import { describeCommandResult, runShellCommand, type CommandResult } from '../../../../../src/chat/tools/core/command';

const posix = process.platform !== 'win32';
const opts = { cwd: os.tmpdir(), timeoutMs: 5000, maxOutputBytes: 1000 };

void test('a command runs in its folder; its output and exit code come back', { skip: !posix }, async () => {
  const r = await runShellCommand('pwd; echo err >&2; exit 4', opts);
  assert.equal(r.exitCode, 4);
  assert.ok(r.output.includes('err'), r.output);
  assert.equal(r.timedOut, false);
  assert.equal(r.truncated, false);
});

void test('output past the limit is counted, not kept', { skip: !posix }, async () => {
  const r = await runShellCommand('head -c 5000 /dev/zero | tr "\\0" x', { ...opts, maxOutputBytes: 100 });
  assert.equal(r.truncated, true);
  assert.equal(r.totalBytes, 5000);
  assert.ok(Buffer.byteLength(r.output) <= 100);
});

void test(
  'a command past its time limit is killed with its children; Stop kills it too',
  { skip: !posix },
  async () => {
    const slow = await runShellCommand('sleep 5 & sleep 5', { ...opts, timeoutMs: 200 });
    assert.equal(slow.timedOut, true);
    assert.ok(slow.durationMs < 4000, `${slow.durationMs} ms`);
    const c = new AbortController();
    const running = runShellCommand('sleep 5', { ...opts, signal: c.signal });
    setTimeout(() => c.abort(), 100);
    assert.equal((await running).aborted, true);
  },
);

void test('the tool message says how the command ended, then its output', () => {
  const base: CommandResult = {
    exitCode: 0,
    signal: null,
    output: 'ok\n',
    totalBytes: 3,
    truncated: false,
    timedOut: false,
    aborted: false,
    durationMs: 1500,
  };
  assert.equal(
    describeCommandResult('ls', base, 30_000),
    'Command `ls` exited with code 0 after 1.5 s.\nOutput:\nok\n',
  );
  assert.match(
    describeCommandResult('ls', { ...base, timedOut: true, exitCode: null }, 30_000),
    /stopped after the 30 s time limit/,
  );
  assert.match(describeCommandResult('ls', { ...base, aborted: true }, 30_000), /stopped by the user/);
  assert.match(
    describeCommandResult('ls', { ...base, exitCode: null, signal: 'SIGKILL' }, 1),
    /killed by signal SIGKILL/,
  );
  assert.match(describeCommandResult('ls', { ...base, output: '  ' }, 1), /\(no output\)/);
  assert.match(
    describeCommandResult('ls', { ...base, truncated: true, totalBytes: 9000 }, 1),
    /output cut: 9000 bytes in total, only the first 3 kept/,
  );
});
