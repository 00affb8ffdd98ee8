// The engine against real hook processes (a node script), alone and as the tool runner's gate:
// block with exit 2, JSON deny, allow, ask, updatedInput, a hang killed at its timeout, 10 MB cut.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import {
  GATE_DENIED_MESSAGE,
  ToolRunner,
  type ApprovalRequest,
  type ToolCardUpdate,
} from '../../../../../src/chat/tools/core/runner';
import { HookEngine, type HookSource } from '../../../../../src/chat/hooks/core/hookEngine';
import { parseHookFile, type HookFlavor } from '../../../../../src/chat/hooks/core/hookFile';
import { nodeToolHost } from '../../../../support/nodeToolHost';

let ws: string;
let script: string;
const node = JSON.stringify(process.execPath);

const HOOK = `
const fs = require('fs');
const mode = process.argv[2];
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s);
  fs.appendFileSync(process.argv[3], JSON.stringify(input) + '\\n');
  const say = (o) => process.stdout.write(JSON.stringify(o));
  const pre = (o) => say({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });
  if (mode === 'block') { process.stderr.write('rm is not allowed here'); process.exit(2); }
  if (mode === 'deny') pre({ permissionDecision: 'deny', permissionDecisionReason: 'policy says no' });
  if (mode === 'allow') pre({ permissionDecision: 'allow' });
  if (mode === 'ask') pre({ permissionDecision: 'ask', permissionDecisionReason: 'look twice' });
  if (mode === 'rewrite') pre({ updatedInput: { command: 'echo rewritten' } });
  if (mode === 'badrewrite') pre({ updatedInput: { command: 42 } });
  if (mode === 'hang') setInterval(() => {}, 1000);
  if (mode === 'flood') { const b = Buffer.alloc(1024 * 1024, 120); for (let i = 0; i < 10; i++) process.stdout.write(b); }
  if (mode === 'context') process.stdout.write('the branch is main');
  if (mode === 'stop' && !input.stop_hook_active) say({ decision: 'block', reason: 'run the tests first' });
  if (mode === 'post') say({ decision: 'block', reason: 'lint failed' });
});
`;

before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-hooks-')));
  script = path.join(ws, 'hook.js');
  await fs.writeFile(script, HOOK);
});
after(async () => fs.rm(ws, { recursive: true, force: true }));

function source(json: unknown, scope: HookSource['scope'] = 'user', flavor: HookFlavor = 'claude'): HookSource {
  return { path: 'x', scope, flavor, commands: parseHookFile(JSON.stringify(json), flavor).commands };
}
const hook = (mode: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command: `${node} ${JSON.stringify(script)} ${mode} ${JSON.stringify(path.join(ws, 'stdin.log'))}`,
  ...extra,
});
const pre = (mode: string, matcher = 'Bash', extra: Record<string, unknown> = {}) => ({
  hooks: { PreToolUse: [{ matcher, hooks: [hook(mode, extra)] }] },
});

function setup(sources: HookSource[], trusted: string[] = []) {
  const asked: ApprovalRequest[] = [];
  const cards: ToolCardUpdate[] = [];
  const engine = new HookEngine({ sources: () => Promise.resolve(sources), root: () => ws });
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }], { commandTimeoutMs: 5000 })),
    approve: (r) => {
      asked.push(r);
      return Promise.resolve('allow');
    },
    trust: { isTrusted: (n) => trusted.includes(n), trust: () => undefined },
    onUpdate: (u) => cards.push(u),
    gate: () => engine,
  });
  const run = async (command: string) =>
    (
      await runner.execute(
        [{ id: 'c1', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command }) } }],
        { signal: new AbortController().signal, conversationId: 'conv' },
      )
    )[0]?.content ?? '';
  return { engine, asked, cards, run };
}

void test('exit 2 denies run_command: nothing is asked or run, the card and the model get the reason', async () => {
  const { asked, cards, run } = setup([source(pre('block'))]);
  const content = await run('echo should-not-run');
  assert.ok(content.startsWith(GATE_DENIED_MESSAGE));
  assert.match(content, /rm is not allowed here/);
  assert.equal(asked.length, 0);
  const last = cards.at(-1);
  assert.equal(last?.state, 'denied');
  assert.equal(last?.resultPreview, 'rm is not allowed here');
  assert.match(last?.hookOutput ?? '', /PreToolUse hook .*: exit 2/);
  // Claude Code's names and fields on stdin for a Claude Code file.
  const logged = JSON.parse((await fs.readFile(path.join(ws, 'stdin.log'), 'utf8')).trim().split('\n').at(-1) ?? '{}');
  assert.equal(logged.tool_name, 'Bash');
  assert.equal(logged.tool_input.command, 'echo should-not-run');
  assert.equal(logged.hook_event_name, 'PreToolUse');
  assert.equal(logged.session_id, 'conv');
  assert.equal(logged.cwd, ws);
});

void test('JSON deny denies; a matcher for another tool leaves the call alone', async () => {
  assert.match(await setup([source(pre('deny'))]).run('echo x'), /policy says no/);
  const other = setup([source(pre('deny', 'Edit|Write'))], ['run_command']);
  assert.match(await other.run('echo fine'), /exited with code 0/);
});

void test("ask forces the card on a trusted tool; the user's allow skips it, a workspace hook's does not", async () => {
  const ask = setup([source(pre('ask'))], ['run_command']);
  await ask.run('echo a');
  assert.equal(ask.asked.length, 1);
  assert.equal(ask.asked[0]?.askEveryTime, true);
  assert.match(ask.asked[0]?.warning ?? '', /look twice/);
  const mine = setup([source(pre('allow'))]);
  assert.match(await mine.run('echo b'), /exited with code 0/);
  assert.equal(mine.asked.length, 0);
  const theirs = setup([source(pre('allow'), 'workspace')]);
  await theirs.run('echo c');
  assert.equal(theirs.asked.length, 1);
});

void test('updatedInput rewrites the command (Claude fields), is asked for as new, and runs rewritten', async () => {
  const { asked, run } = setup([source(pre('rewrite'))], ['run_command']);
  const content = await run('echo original');
  assert.equal(asked.length, 0, 'trusted tool: the rewrite goes through the same trust as the original call');
  assert.match(content, /rewritten/);
  const bad = setup([source(pre('badrewrite'))], ['run_command']);
  const kept = await bad.run('echo original');
  assert.match(kept, /original/);
  assert.match(bad.cards.at(-1)?.hookOutput ?? '', /new arguments were ignored/);
});

void test('a hook that hangs is killed at its timeout and the call goes on, saying so', async () => {
  const { run, cards } = setup([source(pre('hang', 'Bash', { timeout: 1 }))], ['run_command']);
  const started = Date.now();
  assert.match(await run('echo after'), /exited with code 0/);
  assert.ok(Date.now() - started < 8000);
  assert.match(cards.at(-1)?.hookOutput ?? '', /stopped after its 1 s timeout; the call went on/);
});

void test('10 MB of hook output is cut and says so', async () => {
  const { run, cards } = setup([source(pre('flood'))], ['run_command']);
  await run('echo x');
  const out = cards.at(-1)?.hookOutput ?? '';
  assert.match(out, /output cut: 10485760 bytes printed/);
  assert.ok(out.length < 10_000);
});

void test('PostToolUse feedback reaches the model after the result', async () => {
  const { run } = setup(
    [source({ hooks: { PostToolUse: [{ matcher: 'run_command', hooks: [hook('post')] }] } })],
    ['run_command'],
  );
  assert.match(await run('echo done'), /exited with code 0[\s\S]*PostToolUse hook: lint failed/);
});

void test('session events: SessionStart and UserPromptSubmit context, Stop blocks once', async () => {
  const { engine } = setup([
    source({
      hooks: {
        SessionStart: [{ hooks: [hook('context')] }],
        UserPromptSubmit: [{ hooks: [hook('block')] }],
        Stop: [{ hooks: [hook('stop')] }],
      },
    }),
  ]);
  const signal = new AbortController().signal;
  const r = await engine.promptSubmitted({ conversationId: 'conv', prompt: 'hi', first: true, signal });
  assert.equal(r.context, 'the branch is main');
  assert.equal(r.blocked, 'rm is not allowed here');
  const later = await engine.promptSubmitted({ conversationId: 'conv', prompt: 'hi', first: false, signal });
  assert.equal(later.context, undefined);
  assert.equal(
    (await engine.turnStopped({ conversationId: 'conv', stopHookActive: false, signal })).continueWith,
    'run the tests first',
  );
  assert.equal(
    (await engine.turnStopped({ conversationId: 'conv', stopHookActive: true, signal })).continueWith,
    undefined,
  );
  assert.deepEqual(await engine.beforeCompact({ conversationId: 'conv', trigger: 'auto', signal }), {});
});

void test('a cwd outside the workspace folder is refused', async () => {
  const { run, cards } = setup([source(pre('deny', 'Bash', { cwd: '../..' }))], ['run_command']);
  assert.match(await run('echo x'), /exited with code 0/);
  assert.match(cards.at(-1)?.hookOutput ?? '', /outside the workspace folder/);
});
