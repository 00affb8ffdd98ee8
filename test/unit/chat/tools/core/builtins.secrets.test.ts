import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import type { ToolHost } from '../../../../../src/chat/tools/core/host';
import {
  DECLINED_MESSAGE,
  ToolRunner,
  type ApprovalRequest,
  type ToolCardUpdate,
  type ToolDecision,
} from '../../../../../src/chat/tools/core/runner';
import { nodeToolHost } from '../../../../support/nodeToolHost';

// Issue 35, item 2: a model steered by injected text guessed a .env value through edit_file's
// "not found"/"occurs N times" and write_file's "already has exactly this content", one character
// at a time, with no approval asked. Before the user allows a call on a secret file, nothing is
// read and every answer is the same whatever the guess.

const SECRET = 'API_KEY=sk-live-1234\nOTHER=AAAA\n';
let ws: string;
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-secret-edits-')));
});
after(async () => fs.rm(ws, { recursive: true, force: true }));

async function freshEnv(): Promise<void> {
  await fs.writeFile(path.join(ws, '.env'), SECRET);
}

function setup(decide: ToolDecision, trusted: string[] = []) {
  const reads: string[] = [];
  const base = nodeToolHost([{ name: 'ws', path: ws }]);
  // readCurrent asks the editor first: every read of a file's content passes here.
  const host: ToolHost = {
    ...base,
    editorText: (abs) => {
      reads.push(path.relative(ws, abs));
      return undefined;
    },
  };
  const asked: ApprovalRequest[] = [];
  const cards: ToolCardUpdate[] = [];
  const runner = new ToolRunner({
    tools: () => builtinTools(host),
    approve: (r) => {
      asked.push(r);
      return Promise.resolve(decide);
    },
    trust: { isTrusted: (n) => trusted.includes(n), trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  return { runner, asked, cards, reads };
}
let n = 0;
const call = (name: string, args: unknown): ToolCall => ({
  id: `s${++n}`,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
const ctx = () => ({ signal: new AbortController().signal, conversationId: 'c1' });

/** Everything the model or the user is told about one call, less what the call itself carries. */
async function observe(name: string, args: Record<string, unknown>, decide: ToolDecision, trusted: string[] = []) {
  await freshEnv();
  const { runner, asked, cards, reads } = setup(decide, trusted);
  const [m] = await runner.execute([call(name, args)], ctx());
  const strip = (o: object) =>
    JSON.stringify(o, (k, v: unknown) =>
      ['callId', 'args', 'argumentsJson', 'signal', 'shown'].includes(k) ? undefined : v,
    );
  return {
    answer: m?.content,
    asked: asked.map(strip),
    cards: cards.map(strip),
    reads,
    file: await fs.readFile(path.join(ws, '.env'), 'utf8'),
  };
}

void test('before approval, edit_file and write_file on .env answer byte-identically for a right and a wrong guess, and read nothing', async () => {
  const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'edit_file',
      { path: '.env', oldText: 'API_KEY=sk-live-1234', newText: 'x' },
      { path: '.env', oldText: 'API_KEY=sk-live-9999', newText: 'x' },
    ],
    [
      'edit_file',
      { path: '.env', oldText: 'API_KEY=sk-l', newText: 'x' },
      { path: '.env', oldText: 'API_KEY=sk-q', newText: 'x' },
    ],
    // Occurs four times against never: the count was a second oracle.
    ['edit_file', { path: '.env', oldText: 'A', newText: 'x' }, { path: '.env', oldText: 'Q', newText: 'x' }],
    ['write_file', { path: '.env', content: SECRET }, { path: '.env', content: 'API_KEY=sk-live-9999\nOTHER=AAAA\n' }],
  ];
  for (const trusted of [[], ['edit_file', 'write_file']]) {
    for (const [name, right, wrong] of pairs) {
      const r = await observe(name, right, 'deny', trusted);
      const w = await observe(name, wrong, 'deny', trusted);
      const label = `${name} ${JSON.stringify(right)} trusted=${trusted.length > 0}`;
      assert.equal(r.answer, DECLINED_MESSAGE, label);
      assert.deepEqual(w, r, label);
      assert.equal(r.asked.length, 1, `${label}: asked even when trusted`);
      assert.deepEqual(r.reads, [], `${label}: nothing read before approval`);
      assert.equal(r.file, SECRET, label);
      assert.match(r.asked[0] ?? '', /not read before you allow/, label);
    }
  }
});

void test('once allowed, the edit of .env is matched then: it applies, and a wrong guess is told only after the user said yes', async () => {
  const ok = await observe('edit_file', { path: '.env', oldText: 'sk-live-1234', newText: 'sk-live-5678' }, 'allow');
  assert.equal(ok.asked.length, 1);
  assert.match(ok.answer ?? '', /^Edited \.env/);
  assert.equal(ok.file, 'API_KEY=sk-live-5678\nOTHER=AAAA\n');

  const miss = await observe('edit_file', { path: '.env', oldText: 'sk-live-0000', newText: 'x' }, 'allow');
  assert.equal(miss.asked.length, 1, 'asked before the match was tried');
  assert.match(miss.answer ?? '', /oldText was not found/);
  assert.equal(miss.file, SECRET);

  const same = await observe('write_file', { path: '.env', content: SECRET }, 'allow');
  assert.equal(same.asked.length, 1);
  assert.match(same.answer ?? '', /already has exactly this content/);
});

void test('a harmless name that links to .env is as blind before approval', async () => {
  await freshEnv();
  await fs.symlink(path.join(ws, '.env'), path.join(ws, 'notes.txt'));
  try {
    const r = await observe('edit_file', { path: 'notes.txt', oldText: 'API_KEY=sk-live-1234', newText: 'x' }, 'deny', [
      'edit_file',
    ]);
    const w = await observe('edit_file', { path: 'notes.txt', oldText: 'API_KEY=sk-live-0000', newText: 'x' }, 'deny', [
      'edit_file',
    ]);
    assert.deepEqual(w, r);
    assert.deepEqual(r.reads, []);
    assert.match(r.asked[0] ?? '', /secrets/);
  } finally {
    await fs.rm(path.join(ws, 'notes.txt'));
  }
});

void test('a trusted get_diagnostics leaves out the problems of secret files, whose messages can quote them', async () => {
  await freshEnv();
  await fs.writeFile(path.join(ws, 'a.ts'), 'x\n');
  const host: ToolHost = {
    ...nodeToolHost([{ name: 'ws', path: ws }]),
    diagnostics: () => [
      {
        absolute: path.join(ws, '.env'),
        line: 1,
        column: 9,
        severity: 'warning',
        message: 'Unknown word (sklive1234)',
        source: 'cSpell',
      },
      { absolute: path.join(ws, 'a.ts'), line: 1, column: 1, severity: 'error', message: 'Cannot find name x' },
    ],
  };
  const runner = new ToolRunner({
    tools: () => builtinTools(host),
    approve: () => Promise.reject(new Error('must not ask')),
    trust: { isTrusted: () => true, trust: () => undefined },
  });
  const [m] = await runner.execute([call('get_diagnostics', {})], ctx());
  assert.doesNotMatch(m?.content ?? '', /sklive1234/);
  assert.match(m?.content ?? '', /a\.ts:1:1: error: Cannot find name x/);
  assert.match(m?.content ?? '', /1 problem\(s\) in files that may hold secrets are not shown/);
});
