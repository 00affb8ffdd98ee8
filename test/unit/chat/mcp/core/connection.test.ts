// The client against servers no one here wrote (the reference servers from npm, over real stdio
// and real streamable HTTP) and against a misbehaving one: each failure is a clear line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMcpConfig, type McpServerDef } from '../../../../../src/chat/mcp/core/config';
import { McpConnection } from '../../../../../src/chat/mcp/core/connection';
import { resultText } from '../../../../../src/chat/mcp/core/mcpTools';
import type { ResolvedServer } from '../../../../../src/chat/mcp/core/trust';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = path.resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const BAD = path.resolve('test/unit/chat/mcp/core/fixtures/badServer.mjs');

function def(raw: unknown): McpServerDef {
  return readMcpConfig({ servers: { s: raw } }, { scope: 'user', source: 'test' }).servers[0]!;
}
function stdio(args: string[], env: Record<string, string> = {}): ResolvedServer {
  return { def: def({ command: process.execPath, args }), command: process.execPath, args, env };
}
function connect(r: ResolvedServer, logs: string[] = [], startTimeoutMs = 20_000): McpConnection {
  return new McpConnection(r, {
    client: { name: 'test', version: '0' },
    log: (l) => logs.push(l),
    onChange: () => undefined,
    startTimeoutMs,
  });
}
const signal = () => new AbortController().signal;

void test('server-everything over stdio: tools, resources, templates, prompts, an echo and an image', async (t) => {
  const logs: string[] = [];
  const c = connect(stdio([EVERYTHING, 'stdio']), logs);
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  const names = c.tools.map((x) => x.name);
  for (const n of ['echo', 'get-sum', 'get-tiny-image']) assert.ok(names.includes(n), names.join());
  assert.ok(c.resources.length > 0 && c.templates.length > 0 && c.prompts.length > 0);
  const echo = await c.callTool('echo', { message: 'hello' }, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(echo), /hello/);
  const sum = await c.callTool('get-sum', { a: 2, b: 3 }, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(sum), /5/);
  const img = await c.callTool('get-tiny-image', {}, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(img), /\[image image\/png, \d+ bytes\]/);
  const res = await c.readResource(c.resources[0]!.uri);
  assert.ok(res.contents.length > 0);
  const prompt = await c.getPrompt(c.prompts.find((p) => !p.arguments?.some((a) => a.required))!.name, {});
  assert.ok(prompt.messages.length > 0);
  await c.stop();
  assert.equal(c.state, 'stopped');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** server-everything over HTTP in `mode` on a free port, until the test ends. */
async function httpEverything(t: { after: (f: () => void) => void }, mode: string, ready: string): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.after(() => child.kill());
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (d: Buffer) => d.toString().includes(ready) && resolve()),
  );
  return port;
}
const http = (url: string): ResolvedServer => ({ def: def({ type: 'http', url }), url, headers: {} });

void test('server-everything over streamable HTTP: listed and called', async (t) => {
  const port = await httpEverything(t, 'streamableHttp', 'listening');
  const c = connect(http(`http://127.0.0.1:${port}/mcp`));
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  const echo = await c.callTool('echo', { message: 'over http' }, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(echo), /over http/);
});

void test('an address that speaks only the older SSE transport is reached by the fallback', async (t) => {
  const port = await httpEverything(t, 'sse', 'running on port');
  const logs: string[] = [];
  const c = connect(http(`http://127.0.0.1:${port}/sse`), logs);
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  assert.ok(logs.some((l) => l.includes('trying SSE')));
  const echo = await c.callTool('echo', { message: 'over sse' }, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(echo), /over sse/);
});

void test('server-filesystem over stdio reads a file of its folder', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcp-fs-'));
  await writeFile(path.join(dir, 'a.txt'), 'from the file');
  const c = connect(stdio([FILESYSTEM, dir]));
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  const tool = c.tools.find((x) => x.name === 'read_text_file' || x.name === 'read_file')!;
  const r = await c.callTool(tool.name, { path: path.join(dir, 'a.txt') }, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(r), /from the file/);
});

void test('a command that does not exist fails with a line saying so', async () => {
  const c = connect({
    def: def({ command: 'no-such-mcp-command' }),
    command: 'no-such-mcp-command-xyz',
    args: [],
    env: {},
  });
  await c.start();
  assert.equal(c.state, 'failed');
  assert.match(c.error ?? '', /ENOENT|not found/i);
});

void test('a server answering with invalid JSON-RPC fails at start within its timeout', async () => {
  const c = connect(stdio([BAD, 'garbage']), [], 1_500);
  await c.start();
  assert.equal(c.state, 'failed');
  assert.match(c.error ?? '', /timed out|timeout/i);
});

void test('a server that dies mid-call: the call fails, the state says so with its stderr', async () => {
  const logs: string[] = [];
  const c = connect(stdio([BAD]), logs);
  await c.start();
  assert.equal(c.state, 'running', c.error);
  await assert.rejects(c.callTool('die', {}, { signal: signal(), timeoutMs: 10_000 }), /closed|ended|terminated/i);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(c.state, 'failed');
  assert.match(c.error ?? '', /stopped.*bad server ready/);
  assert.ok(logs.some((l) => l.includes('bad server ready')));
});

void test('a call that hangs times out, and Stop cancels it at once', async (t) => {
  const c = connect(stdio([BAD]));
  t.after(() => c.stop());
  await c.start();
  await assert.rejects(c.callTool('hang', {}, { signal: signal(), timeoutMs: 300 }), /timed out/i);
  const ac = new AbortController();
  const call = c.callTool('hang', {}, { signal: ac.signal, timeoutMs: 60_000 });
  setTimeout(() => ac.abort(new Error('Stopped')), 50);
  await assert.rejects(call, /Stopped|abort/i);
  assert.equal(c.state, 'running');
});

void test('listChanged: a server that adds a tool has it listed again, and the host is told', async (t) => {
  let changes = 0;
  const c = new McpConnection(stdio([BAD]), {
    client: { name: 'test', version: '0' },
    log: () => undefined,
    onChange: () => changes++,
  });
  t.after(() => c.stop());
  await c.start();
  assert.equal(c.state, 'running', c.error);
  assert.ok(!c.tools.some((x) => x.name === 'grown'));
  const before = changes;
  await c.callTool('grow', {}, { signal: signal(), timeoutMs: 10_000 });
  for (let i = 0; i < 50 && !c.tools.some((x) => x.name === 'grown'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(
    c.tools.some((x) => x.name === 'grown'),
    'the new tool is listed',
  );
  assert.ok(changes > before, 'onChange fired');
});

void test('invalid JSON-RPC mid-session: a line in the log, and the call and the server go on', async (t) => {
  const logs: string[] = [];
  const c = connect(stdio([BAD]), logs);
  t.after(() => c.stop());
  await c.start();
  const r = await c.callTool('garble', {}, { signal: signal(), timeoutMs: 10_000 });
  assert.match(resultText(r), /still here/);
  assert.ok(
    logs.some((l) => /protocol error/.test(l)),
    logs.join('\n'),
  );
  assert.equal(c.state, 'running');
});
