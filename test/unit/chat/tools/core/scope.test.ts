import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner, type ApprovalRequest, type ToolCardUpdate } from '../../../../../src/chat/tools/core/runner';
import { notAllowedMessage, scopeExecutor } from '../../../../../src/chat/tools/core/scope';
import { nodeToolHost } from '../../../../support/nodeToolHost';

let ws: string;
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-scope-')));
  await fs.writeFile(path.join(ws, 'a.txt'), 'one\n');
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

function runner(choice: 'auto' | { name: string } = 'auto') {
  const asked: ApprovalRequest[] = [];
  const cards: ToolCardUpdate[] = [];
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: ws }]));
  const r = new ToolRunner({
    tools: () => tools,
    approve: (req) => {
      asked.push(req);
      return Promise.resolve('allow');
    },
    trust: { isTrusted: () => true, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
    choice: () => choice,
  });
  return { r, asked, cards };
}
const readOnly = (_n: string, ro: boolean) => ro;
const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

void test('only the allowed tools are offered, in both the full and the read-only list', () => {
  const { r } = runner();
  const s = scopeExecutor(r, (n) => n === 'read_file' || n === 'write_file', 'the test agent');
  assert.deepEqual(
    s.definitions().map((d) => d.function.name),
    ['read_file', 'write_file'],
  );
  assert.deepEqual(
    s.readOnlyDefinitions?.().map((d) => d.function.name),
    ['read_file'],
  );
});

void test('a forced tool_choice outside the scope is dropped (the gateway would refuse it); one inside is kept', () => {
  assert.equal(scopeExecutor(runner({ name: 'write_file' }).r, readOnly, 'x').toolChoice(), undefined);
  assert.deepEqual(scopeExecutor(runner({ name: 'read_file' }).r, readOnly, 'x').toolChoice(), {
    type: 'function',
    function: { name: 'read_file' },
  });
});

void test('a call outside the scope is refused by the runner: not asked, not run, its card says so', async () => {
  const { r, asked, cards } = runner();
  const s = scopeExecutor(r, readOnly, 'the Plan agent');
  const out = await s.execute(
    [call('c1', 'write_file', { path: 'a.txt', content: 'two\n' }), call('c2', 'read_file', { path: 'a.txt' })],
    { signal: new AbortController().signal, conversationId: 'conv' },
  );
  assert.equal(out[0]?.content, notAllowedMessage('write_file', 'the Plan agent'));
  assert.match(out[1]?.content ?? '', /one/);
  assert.equal(await fs.readFile(path.join(ws, 'a.txt'), 'utf8'), 'one\n');
  assert.deepEqual(asked, [], 'nothing was asked');
  assert.deepEqual(
    cards.filter((c) => c.callId === 'c1').map((c) => c.state),
    ['denied'],
  );
});

void test('without a scope the runner is as before: the call runs', async () => {
  const { r } = runner();
  const out = await r.execute([call('c1', 'write_file', { path: 'b.txt', content: 'x' })], {
    signal: new AbortController().signal,
    conversationId: 'conv',
  });
  assert.match(out[0]?.content ?? '', /Created b.txt/);
});
