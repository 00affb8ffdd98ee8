// The host install lock (test/host/install.ts): runs started at once install one after the other,
// and a lock left by a process that died is taken over.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { lockInstall } from '../../host/install';

const dir = mkdtempSync(join(tmpdir(), 'gws-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const installModule = resolve(__dirname, '..', '..', 'host', 'install.ts');

/** A child process that holds the lock for `holdMs` and logs `start`/`end` with its pid. */
function holder(lockFile: string, log: string, holdMs: number): Promise<number> {
  const script = `
    const { appendFileSync } = require('node:fs');
    const { lockInstall } = require(${JSON.stringify(installModule)});
    (async () => {
      const release = await lockInstall(${JSON.stringify(lockFile)}, 60000);
      appendFileSync(${JSON.stringify(log)}, 'start ' + process.pid + '\\n');
      await new Promise((r) => setTimeout(r, ${holdMs}));
      appendFileSync(${JSON.stringify(log)}, 'end ' + process.pid + '\\n');
      release();
    })().catch((e) => { console.error(e); process.exit(3); });`;
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', rej);
    child.on('close', (code) => res(code ?? -1));
  });
}

void test('three runs that want to install at once hold the lock one after the other, never together', async () => {
  const lockFile = join(dir, 'a', 'host.lock');
  const log = join(dir, 'a.log');
  writeFileSync(log, '');
  const codes = await Promise.all([holder(lockFile, log, 400), holder(lockFile, log, 400), holder(lockFile, log, 400)]);
  assert.deepEqual(codes, [0, 0, 0], 'every holder exits cleanly');
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(lines.length, 6, `log: ${lines.join(' | ')}`);
  for (let i = 0; i < lines.length; i += 2) {
    const [a, b] = [lines[i]!.split(' '), lines[i + 1]!.split(' ')];
    assert.equal(a[0], 'start', `line ${i}: ${lines[i]}`);
    assert.equal(b[0], 'end', `line ${i + 1}: ${lines[i + 1]}`);
    assert.equal(a[1], b[1], `the run that started at line ${i} ended before another started: ${lines.join(' | ')}`);
  }
  assert.equal(existsSync(lockFile), false, 'the last holder removed the lock');
});

/** The pid of a process that certainly existed and has exited: a finished child's. */
function deadPid(): Promise<number> {
  return new Promise<number>((res) => {
    const c = spawn(process.execPath, ['-e', '0']);
    c.on('close', () => res(c.pid!));
  });
}

void test('three runs that find the same dead owner take over one after the other, never together', async () => {
  const lockFile = join(dir, 'd', 'host.lock');
  const log = join(dir, 'd.log');
  writeFileSync(log, '');
  await holder(join(dir, 'd', 'warm.lock'), join(dir, 'warm.log'), 0); // creates the folder
  writeFileSync(lockFile, String(await deadPid()));
  const codes = await Promise.all([holder(lockFile, log, 400), holder(lockFile, log, 400), holder(lockFile, log, 400)]);
  assert.deepEqual(codes, [0, 0, 0], 'every holder exits cleanly');
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(lines.length, 6, `log: ${lines.join(' | ')}`);
  for (let i = 0; i < lines.length; i += 2) {
    assert.ok(
      lines[i]!.startsWith('start ') && lines[i + 1] === lines[i]!.replace('start', 'end'),
      `overlapping holders: ${lines.join(' | ')}`,
    );
  }
  assert.equal(existsSync(lockFile), false, 'the last holder removed the lock');
});

void test('a lock left by a process that is gone is taken over at once', async () => {
  const lockFile = join(dir, 'b.lock');
  const dead = await deadPid();
  writeFileSync(lockFile, String(dead));
  const t0 = Date.now();
  const release = await lockInstall(lockFile, 5000);
  assert.ok(Date.now() - t0 < 1500, `took ${Date.now() - t0} ms`);
  assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid), 'the lock now names this process');
  release();
  assert.equal(existsSync(lockFile), false, 'released');
});

void test('a lock held by a live process that never lets go ends in an error naming the pid and the file', async () => {
  const lockFile = join(dir, 'c.lock');
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
  try {
    writeFileSync(lockFile, String(child.pid));
    await assert.rejects(
      lockInstall(lockFile, 1000),
      (e: Error) => e.message.includes(String(child.pid)) && e.message.includes(lockFile),
    );
  } finally {
    child.kill();
  }
});
