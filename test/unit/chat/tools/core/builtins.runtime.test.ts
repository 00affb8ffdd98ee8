// Run-time re-checks of the built-in tools: what was approved may be swapped for a link out, a
// FIFO or a hard link before the call runs. Real symlinks, FIFOs (mkfifo) and hard links in temp folders.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner, type ToolDecision } from '../../../../../src/chat/tools/core/runner';
import { nodeToolHost } from '../../../../support/nodeToolHost';

const posix = process.platform !== 'win32';
let base: string;
let ws: string;
let outside: string;
const SECRET = 'PRIVATE KEY OUTSIDE THE WORKSPACE';

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-runtime-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'id_rsa'), SECRET);
});
after(async () => fs.rm(base, { recursive: true, force: true }));

/** A runner whose approval runs `meanwhile` first: what happens between approval and execution. */
function runner(meanwhile: () => Promise<void> = async () => undefined) {
  return new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }], { commandTimeoutMs: 2000 })),
    approve: async (): Promise<ToolDecision> => {
      await meanwhile();
      return 'allow';
    },
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: () => undefined,
  });
}
const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
const ctx = () => ({ signal: new AbortController().signal, conversationId: 'c1' });
async function one(r: ToolRunner, name: string, args: unknown): Promise<string> {
  const [m] = await r.execute([call('x', name, args)], ctx());
  return m?.content ?? '';
}

void test('read_file: a file swapped for a link out of the workspace while awaiting approval is refused', async () => {
  const file = path.join(ws, 'src', 'swap.txt');
  await fs.writeFile(file, 'harmless');
  const out = await one(
    runner(async () => {
      await fs.rm(file);
      await fs.symlink(path.join(outside, 'id_rsa'), file);
    }),
    'read_file',
    { path: 'src/swap.txt' },
  );
  assert.match(out, /symbolic link that points outside the workspace/);
  assert.ok(!out.includes(SECRET), out);
});

void test('list_directory: a folder swapped for a link out while awaiting approval is refused', async () => {
  const dir = path.join(ws, 'listed');
  await fs.mkdir(dir);
  const out = await one(
    runner(async () => {
      await fs.rm(dir, { recursive: true });
      await fs.symlink(outside, dir);
    }),
    'list_directory',
    { path: 'listed' },
  );
  assert.match(out, /points outside the workspace/);
  assert.ok(!out.includes('id_rsa'), out);
});

void test(
  'read_file and write_file refuse a FIFO at once instead of waiting for a writer for ever',
  { skip: !posix, timeout: 10_000 },
  async () => {
    const fifo = path.join(ws, 'src', 'pipe');
    execFileSync('mkfifo', [fifo]);
    try {
      const read = await one(runner(), 'read_file', { path: 'src/pipe' });
      assert.match(read, /not a regular file \(a pipe, socket or device\)/);
      const write = await one(runner(), 'write_file', { path: 'src/pipe', content: 'x' });
      assert.match(write, /not a regular file/);
    } finally {
      await fs.rm(fifo);
    }
  },
);

void test(
  'read_file: a file swapped for a FIFO while awaiting approval is refused, not hung on',
  { skip: !posix, timeout: 10_000 },
  async () => {
    const file = path.join(ws, 'src', 'later-pipe');
    await fs.writeFile(file, 'text');
    try {
      const out = await one(
        runner(async () => {
          await fs.rm(file);
          execFileSync('mkfifo', [file]);
        }),
        'read_file',
        { path: 'src/later-pipe' },
      );
      assert.match(out, /not a regular file/);
    } finally {
      await fs.rm(file, { force: true });
    }
  },
);

void test('write_file and edit_file refuse a file with a second hard link (it may live outside the workspace)', async () => {
  const victim = path.join(outside, 'bashrc');
  await fs.writeFile(victim, 'original\n');
  const inside = path.join(ws, 'src', 'hard.txt');
  await fs.link(victim, inside);
  try {
    const w = await one(runner(), 'write_file', { path: 'src/hard.txt', content: 'owned\n' });
    assert.match(w, /2 hard links/);
    const e = await one(runner(), 'edit_file', { path: 'src/hard.txt', oldText: 'original', newText: 'owned' });
    assert.match(e, /hard links/);
    assert.equal(await fs.readFile(victim, 'utf8'), 'original\n');
  } finally {
    await fs.rm(inside);
  }
});

void test('edit_file: a hard link made while awaiting approval stops the write', async () => {
  const victim = path.join(outside, 'profile');
  await fs.writeFile(victim, 'original\n');
  const inside = path.join(ws, 'src', 'later-hard.txt');
  await fs.writeFile(inside, 'original\n');
  try {
    const out = await one(
      runner(async () => {
        await fs.rm(inside);
        await fs.link(victim, inside);
      }),
      'edit_file',
      { path: 'src/later-hard.txt', oldText: 'original', newText: 'owned' },
    );
    assert.match(out, /hard links/);
    assert.equal(await fs.readFile(victim, 'utf8'), 'original\n');
  } finally {
    await fs.rm(inside, { force: true });
  }
});
