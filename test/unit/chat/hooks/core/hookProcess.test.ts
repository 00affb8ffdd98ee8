// Real child processes: stdin arrives, output is capped, a hang is killed with its children.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { runHookProcess } from '../../../../../src/chat/hooks/core/hookProcess';

const node = JSON.stringify(process.execPath);
const js = (code: string) => `${node} -e ${JSON.stringify(code)}`;
const base = { cwd: os.tmpdir(), stdin: '{"hook_event_name":"PreToolUse"}', timeoutMs: 10_000 };

void test('the event JSON reaches stdin; stdout, stderr and the exit code come back', async () => {
  const r = await runHookProcess(
    js(
      `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(JSON.parse(s).hook_event_name);process.stderr.write('why');process.exit(2)})`,
    ),
    base,
  );
  assert.equal(r.exitCode, 2);
  assert.equal(r.stdout, 'PreToolUse');
  assert.equal(r.stderr, 'why');
  assert.equal(r.truncated, false);
});

void test('10 MB of output is cut at the cap and counted', async () => {
  const r = await runHookProcess(
    js(`const b=Buffer.alloc(1024*1024,120);for(let i=0;i<10;i++)process.stdout.write(b)`),
    {
      ...base,
      maxOutputBytes: 64 * 1024,
    },
  );
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout.length, 64 * 1024);
  assert.equal(r.totalBytes, 10 * 1024 * 1024);
  assert.equal(r.truncated, true);
});

void test('a hook that hangs (and its child) is killed at the timeout', async () => {
  const started = Date.now();
  // The shell starts a node that starts another: all of them must go.
  const r = await runHookProcess(
    js(
      `require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'inherit'});setInterval(()=>{},1000)`,
    ),
    { ...base, timeoutMs: 300 },
  );
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, null);
  assert.ok(Date.now() - started < 5000, 'returned soon after the timeout');
});

void test('Stop aborts a running hook; a hook that ignores stdin is no failure', async () => {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const r = await runHookProcess(js('setInterval(()=>{},1000)'), { ...base, signal: ac.signal });
  assert.equal(r.aborted, true);
  const quiet = await runHookProcess(js('process.exit(0)'), { ...base, stdin: 'x'.repeat(1024 * 1024) });
  assert.equal(quiet.exitCode, 0);
  const missing = await runHookProcess('exit 0', { ...base, cwd: '/no/such/folder/here' });
  assert.ok(missing.spawnError !== undefined || missing.exitCode !== 0);
});
