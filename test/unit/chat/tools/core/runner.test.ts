import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { nodeToolHost } from '../../../../support/nodeToolHost';
import {
  DECLINED_MESSAGE,
  ToolRunner,
  type ApprovalRequest,
  type ToolDecision,
  type ToolCardUpdate,
} from '../../../../../src/chat/tools/core/runner';
import type { ToolCall } from '../../../../../src/api/chat/wire';

let ws: string;
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-runner-')));
  await fs.mkdir(path.join(ws, 'src'));
  await fs.writeFile(path.join(ws, 'src', 'x.ts'), 'export function add(a: number, b: number) {\n  return a - b;\n}\n');
});
after(async () => fs.rm(ws, { recursive: true, force: true }));

function setup(decide: (r: ApprovalRequest) => ToolDecision | Promise<ToolDecision>) {
  const trusted = new Set<string>();
  const asked: ApprovalRequest[] = [];
  const cards: ToolCardUpdate[] = [];
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }], { commandTimeoutMs: 2000 })),
    approve: async (r) => {
      asked.push(r);
      return decide(r);
    },
    trust: { isTrusted: (n) => trusted.has(n), trust: (n) => void trusted.add(n) },
    onUpdate: (u) => cards.push(u),
  });
  return { runner, trusted, asked, cards };
}
const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});
const ctx = () => ({ signal: new AbortController().signal, conversationId: 'c1' });

void test('an approved edit_file changes the file on disk and reports the diff to the model', async () => {
  const { runner, asked, cards } = setup(() => 'allow');
  const [m] = await runner.execute(
    [call('e1', 'edit_file', { path: 'src/x.ts', oldText: 'return a - b;', newText: 'return a + b;' })],
    ctx(),
  );
  assert.equal(m?.tool_call_id, 'e1');
  assert.match(m?.content ?? '', /Edited src\/x\.ts/);
  assert.match(m?.content ?? '', /\+ {2}return a \+ b;/);
  assert.match(await fs.readFile(path.join(ws, 'src', 'x.ts'), 'utf8'), /return a \+ b;/);
  assert.equal(asked.length, 1);
  assert.match(asked[0]?.summary ?? '', /- {2}return a - b;/);
  assert.deepEqual(
    cards.map((c) => c.state),
    ['awaiting-approval', 'running', 'done'],
  );
});

void test('a denied write_file leaves the disk untouched and tells the model the user declined', async () => {
  const { runner, cards } = setup(() => 'deny');
  const [m] = await runner.execute([call('w1', 'write_file', { path: 'src/new.ts', content: 'x' })], ctx());
  assert.equal(m?.content, DECLINED_MESSAGE);
  await assert.rejects(fs.stat(path.join(ws, 'src', 'new.ts')));
  assert.equal(cards.at(-1)?.state, 'denied');
});

void test('"always allow" trusts a read-only tool for later calls but only allows a changing tool once', async () => {
  const { runner, asked, trusted } = setup(() => 'alwaysAllow');
  await runner.execute(
    [call('r1', 'read_file', { path: 'src/x.ts' }), call('r2', 'read_file', { path: 'src/x.ts' })],
    ctx(),
  );
  assert.equal(asked.length, 1);
  assert.equal(trusted.has('read_file'), true, 'read_file is trusted after always-allow');
  await runner.execute(
    [
      call('w1', 'write_file', { path: 'src/a.txt', content: '1' }),
      call('w2', 'write_file', { path: 'src/b.txt', content: '2' }),
    ],
    ctx(),
  );
  assert.equal(asked.length, 3);
  assert.equal(trusted.has('write_file'), false, 'write_file is never trusted from a card');
});

void test('a path escape is refused before the user is asked', async () => {
  const { runner, asked, cards } = setup(() => 'allow');
  const [m] = await runner.execute([call('p1', 'write_file', { path: '../evil.txt', content: 'x' })], ctx());
  assert.match(m?.content ?? '', /^Error: .*leaves the workspace/);
  assert.equal(asked.length, 0);
  assert.equal(cards.at(-1)?.state, 'error');
});

void test('an edit whose file changed while awaiting approval is not applied', async () => {
  const file = path.join(ws, 'src', 'race.ts');
  await fs.writeFile(file, 'one\n');
  const { runner } = setup(async (): Promise<ToolDecision> => {
    await fs.writeFile(file, 'changed by the user\n');
    return 'allow';
  });
  const [m] = await runner.execute(
    [call('r', 'edit_file', { path: 'src/race.ts', oldText: 'one', newText: 'two' })],
    ctx(),
  );
  assert.match(m?.content ?? '', /changed while the edit waited for approval/);
  assert.equal(await fs.readFile(file, 'utf8'), 'changed by the user\n');
});

void test('run_command output is captured and a command past the time limit is stopped', async () => {
  const { runner } = setup(() => 'allow');
  const [ok, slow] = await runner.execute(
    [
      call('c1', 'run_command', { command: 'echo hello-from-shell; exit 3' }),
      call('c2', 'run_command', { command: 'sleep 10' }),
    ],
    ctx(),
  );
  assert.match(ok?.content ?? '', /exited with code 3/);
  assert.match(ok?.content ?? '', /hello-from-shell/);
  assert.match(slow?.content ?? '', /stopped after the 2 s time limit/);
});

void test("each card says how its tool shows a call (the tool's preview), so the page never goes by a name", async () => {
  const { runner, cards } = setup(() => 'deny');
  await runner.execute(
    [
      call('p1', 'run_command', { command: 'echo hi' }),
      call('p2', 'write_file', { path: 'src/p.txt', content: 'p\n' }),
      call('p3', 'read_file', { path: 'src/a.ts' }),
    ],
    ctx(),
  );
  const previewOf = (id: string) => [...new Set(cards.filter((c) => c.callId === id).map((c) => c.preview))];
  assert.deepEqual(previewOf('p1'), ['command']);
  assert.deepEqual(previewOf('p2'), ['diff']);
  assert.deepEqual(previewOf('p3'), [undefined]);
});

void test('stopping while a call awaits approval rejects the run and marks the card', async () => {
  const ac = new AbortController();
  // Stop once the call is at the approval (not after a fixed delay: on a loaded machine the run
  // had not reached it yet after 20 ms, so no card had been posted).
  const { runner, cards } = setup(() => {
    setTimeout(() => ac.abort(), 0);
    return new Promise<ToolDecision>(() => undefined);
  });
  const p = runner.execute([call('s1', 'write_file', { path: 'src/s.txt', content: 'x' })], {
    signal: ac.signal,
    conversationId: 'c',
  });
  await assert.rejects(p, { name: 'AbortError' });
  assert.equal(cards.at(-1)?.state, 'denied');
});

void test('a denied read-only call reads nothing: its work waits for approval', async () => {
  let reads = 0;
  const base = nodeToolHost([{ name: 'ws', path: ws }]);
  const host = { ...base, editorText: (p: string) => (reads++, base.editorText(p)) };
  const runner = new ToolRunner({
    tools: () => builtinTools(host),
    approve: () => Promise.resolve('deny'),
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  const [m] = await runner.execute([call('d1', 'read_file', { path: 'src/x.ts' })], ctx());
  assert.equal(m?.content, DECLINED_MESSAGE);
  assert.equal(reads, 0, 'the file was not read');
  const allowed = new ToolRunner({
    tools: () => builtinTools(host),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  await allowed.execute([call('d2', 'read_file', { path: 'src/x.ts' })], ctx());
  assert.equal(reads, 1, 'an allowed call reads once');
});

void test('a broken regex or glob is refused before the user is asked', async () => {
  const { runner, asked } = setup(() => 'allow');
  const [re, glob] = await runner.execute(
    [call('g1', 'search_text', { query: 'a(', isRegex: true }), call('g2', 'find_files', { pattern: 'src/{a,b' })],
    ctx(),
  );
  assert.match(re?.content ?? '', /regular expression is invalid/);
  assert.match(glob?.content ?? '', /unclosed "\{"/);
  assert.equal(asked.length, 0, 'nobody was asked');
});

void test('a card answered while the diff is still opening is not lost', async () => {
  // The card's buttons work as soon as it shows; the approver must already be listening then,
  // not only once the (slow) diff view has opened, or the click is dropped and the turn hangs.
  const pending = new Map<string, (d: ToolDecision) => void>();
  const base = nodeToolHost([{ name: 'ws', path: ws }]);
  const runner = new ToolRunner({
    tools: () => builtinTools({ ...base, showChange: () => new Promise<void>((r) => setTimeout(r, 100)) }),
    approve: (r) => new Promise<ToolDecision>((resolve) => pending.set(r.callId, resolve)),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => {
      if (u.state === 'awaiting-approval') setTimeout(() => pending.get(u.callId)?.('allow'), 10);
    },
  });
  const ran = runner.execute([call('q1', 'write_file', { path: 'src/quick.txt', content: 'q\n' })], ctx());
  const timeout = new Promise<'hung'>((r) => setTimeout(() => r('hung'), 2000).unref());
  const r = await Promise.race([ran, timeout]);
  assert.notEqual(r, 'hung', 'the early answer was lost');
  assert.match((r as { content: string }[])[0]?.content ?? '', /^Created src\/quick\.txt/);
});

void test('a diff that fails to open is said on the card and to the approver, not swallowed', async () => {
  // The approval text tells the user to review the change in the diff: when the diff could not
  // be opened, the card (and the fallback question) must say so instead of pointing at nothing.
  const base = nodeToolHost([{ name: 'ws', path: ws }]);
  const cards: ToolCardUpdate[] = [];
  let previewFailed: string | undefined;
  const runner = new ToolRunner({
    tools: () => builtinTools({ ...base, showChange: () => Promise.reject(new Error('no diff editor')) }),
    approve: async (r) => {
      previewFailed = await r.shown;
      return 'deny';
    },
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  await runner.execute([call('d1', 'write_file', { path: 'src/nodiff.txt', content: 'n\n' })], ctx());
  assert.match(previewFailed ?? '', /diff view of this change could not be opened/);
  const waiting = cards.filter((c) => c.state === 'awaiting-approval').at(-1);
  assert.match(waiting?.warning ?? '', /diff view of this change could not be opened/);
  assert.equal(cards.at(-1)?.state, 'denied');
  assert.match(cards.at(-1)?.warning ?? '', /could not be opened/, 'the warning stays on the settled card');
});

void test('reading the tool choice changes nothing: after calls ran under a forced tool, two reads give the same answer', async () => {
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }])),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    choice: () => ({ name: 'list_directory' }),
  });
  await runner.execute([call('l1', 'list_directory', { path: '.' })], ctx());
  const first = runner.toolChoice();
  assert.deepEqual(runner.toolChoice(), first, 'the first read changed what the second one gives');
});

void test('a prepared call’s note (a billed call’s price) is on its card while it asks, and stays', async () => {
  const cards: ToolCardUpdate[] = [];
  let ran = 0;
  const runner = new ToolRunner({
    tools: () => [
      {
        definition: { type: 'function', function: { name: 'paid', description: 'd', parameters: { type: 'object' } } },
        readOnly: false,
        prepare: () =>
          Promise.resolve({
            note: 'Price: about $0.04: 1 image(s) × $0.04, gpt-image-1. Billed to your gateway account.',
            run: () => Promise.resolve({ content: `ran ${++ran}` }),
          }),
      },
    ],
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  await runner.execute([call('p1', 'paid', {})], ctx());
  assert.equal(ran, 1);
  const waiting = cards.find((c) => c.state === 'awaiting-approval');
  assert.match(waiting?.warning ?? '', /^Price: about \$0\.04.*Billed to your gateway account\.$/);
  assert.match(cards.at(-1)?.warning ?? '', /Price: about \$0\.04/);
});
