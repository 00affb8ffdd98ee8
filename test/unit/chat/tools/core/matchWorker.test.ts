// search_text's match workers (src/chat/tools/core/matchWorker.ts): kept between searches, several
// at once, one stopped by its budget or by the user never handed out again, and none keeps the
// process alive.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { matchInWorker, type MatchJob } from '../../../../../src/chat/tools/core/matchWorker';

const dir = mkdtempSync(join(tmpdir(), 'gws-match-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return { display: name, absolute: join(dir, name) };
};
const a = file('a.txt', 'alpha one\nbeta\nalpha two\n');
const b = file('b.txt', 'gamma\nalpha three\n');
const evil = file('evil.txt', `${'a'.repeat(40)}!\n`);

const job = (source: string, files = [a, b], flags = ''): MatchJob => ({
  source,
  flags,
  files,
  max: 100,
  maxFileBytes: 1 << 20,
  maxLine: 2000,
  maxHitLine: 300,
});

void test('searches one after the other and five at once each get their own hits', async () => {
  const alpha = { hits: ['a.txt:1: alpha one', 'a.txt:3: alpha two', 'b.txt:2: alpha three'], filesSearched: 2 };
  for (let i = 0; i < 3; i++) assert.deepEqual(await matchInWorker(job('alpha'), 5000), alpha);
  const words = ['alpha', 'beta', 'gamma', 'three', 'nothing'];
  const all = await Promise.all(words.map((w) => matchInWorker(job(w), 5000)));
  assert.deepEqual(
    all.map((r) => r.hits.length),
    [3, 1, 1, 1, 0],
  );
  assert.deepEqual(all[2], { hits: ['b.txt:1: gamma'], filesSearched: 2 });
});

void test('the match limit ends a search with its reason, and the worker answers the next one', async () => {
  const r = await matchInWorker({ ...job('alpha'), max: 2 }, 5000);
  assert.deepEqual(r, {
    hits: ['a.txt:1: alpha one', 'a.txt:3: alpha two'],
    filesSearched: 1,
    stopped: 'reached 2 matches',
  });
  assert.equal((await matchInWorker(job('beta'), 5000)).hits.length, 1);
});

void test('a search stopped by its budget or by the user keeps what it found; the next search still answers', async () => {
  const slow = await matchInWorker(job('(a+)+$', [a, evil]), 800);
  assert.equal(slow.filesSearched, 2);
  assert.match(slow.stopped ?? '', /^time limit of 0.8 s reached/);
  const user = new AbortController();
  const stopping = matchInWorker(job('(a+)+$', [evil]), 60_000, user.signal);
  setTimeout(() => user.abort(), 200);
  assert.equal((await stopping).stopped, 'stopped');
  const before = new AbortController();
  before.abort();
  assert.deepEqual(await matchInWorker(job('alpha'), 5000, before.signal), {
    hits: [],
    filesSearched: 0,
    stopped: 'stopped',
  });
  assert.equal((await matchInWorker(job('gamma'), 5000)).hits[0], 'b.txt:1: gamma');
});

void test('waiting workers do not keep a process alive after its searches', async () => {
  const module = join(__dirname, '..', '..', '..', '..', '..', 'src', 'chat', 'tools', 'core', 'matchWorker.ts');
  const script = `
    const { matchInWorker } = require(${JSON.stringify(module)});
    Promise.all([1, 2].map(() => matchInWorker(${JSON.stringify(job('alpha'))}, 5000))).then((r) => console.log(r.map((x) => x.hits.length).join(',')));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  clearTimeout(killer);
  assert.equal(out.trim(), '3,3');
  assert.equal(code, 0, 'the process ended by itself once both searches answered');
});
