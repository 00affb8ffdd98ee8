// Our MCP server through the SDK's own client over real HTTP: the token is required, the tools
// are listed and called, and a billed call the user did not confirm creates nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FeatureToolError, type FeatureTool } from '../../../../../src/contracts/featureTools';
import { newServerToken, startToolServer } from '../../../../../src/lm/mcpServer/core/toolServer';

function fakeVideoTools(tasks: string[]): FeatureTool[] {
  return [
    {
      name: 'video_status',
      description: 'The video tasks',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      prepare: () =>
        Promise.resolve({ run: () => Promise.resolve({ content: `tasks: ${tasks.join(', ') || 'none'}` }) }),
    },
    {
      name: 'generate_video',
      description: 'Starts a billed video task',
      parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
      readOnly: false,
      prepare: (args) => {
        if (typeof args['prompt'] !== 'string') return Promise.reject(new FeatureToolError('prompt is required'));
        return Promise.resolve({
          summary: 'Generate a video · about $0.40',
          run: () => {
            tasks.push(String(args['prompt']));
            return Promise.resolve({ content: `started ${tasks.length}` });
          },
        });
      },
    },
  ];
}

async function client(url: string, token: string | undefined): Promise<Client> {
  const c = new Client({ name: 'test', version: '0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

void test('a request without the token, or with another, is refused', async (t) => {
  const s = await startToolServer({
    tools: () => [],
    confirm: () => Promise.resolve(true),
    token: newServerToken(),
    version: '1',
  });
  t.after(() => s.close());
  assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  await assert.rejects(client(s.url, undefined), /401|token/i);
  await assert.rejects(client(s.url, newServerToken()), /401|token/i);
});

void test('a request naming another host (DNS rebinding) is refused', async (t) => {
  const token = newServerToken();
  const s = await startToolServer({ tools: () => [], confirm: () => Promise.resolve(true), token, version: '1' });
  t.after(() => s.close());
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const u = new URL(s.url);
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { host: `evil.example:${u.port}`, authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
  assert.equal(status, 403);
});

void test('the SDK client lists the tools and gets the task list from video_status', async (t) => {
  const token = newServerToken();
  const tasks = ['cat.mp4'];
  const s = await startToolServer({
    tools: () => fakeVideoTools(tasks),
    confirm: () => Promise.resolve(true),
    token,
    version: '1',
  });
  t.after(() => s.close());
  const c = await client(s.url, token);
  t.after(() => c.close());
  const listed = await c.listTools();
  assert.deepEqual(
    listed.tools.map((x) => [x.name, x.annotations?.readOnlyHint]),
    [
      ['video_status', true],
      ['generate_video', false],
    ],
  );
  const r = await c.callTool({ name: 'video_status', arguments: {} });
  assert.deepEqual(r.content, [{ type: 'text', text: 'tasks: cat.mp4' }]);
});

void test('a billed call the user does not confirm creates no task; a confirmed one does, with the price shown', async (t) => {
  const token = newServerToken();
  const tasks: string[] = [];
  const asked: string[] = [];
  let answer = false;
  const s = await startToolServer({
    tools: () => fakeVideoTools(tasks),
    confirm: (tool, summary) => {
      asked.push(`${tool.name}: ${summary ?? ''}`);
      return Promise.resolve(answer);
    },
    token,
    version: '1',
  });
  t.after(() => s.close());
  const c = await client(s.url, token);
  t.after(() => c.close());
  const declined = await c.callTool({ name: 'generate_video', arguments: { prompt: 'a cat' } });
  assert.equal(declined.isError, true);
  assert.match(JSON.stringify(declined.content), /declined/);
  assert.equal(tasks.length, 0);
  answer = true;
  const ok = await c.callTool({ name: 'generate_video', arguments: { prompt: 'a cat' } });
  assert.notEqual(ok.isError, true);
  assert.deepEqual(tasks, ['a cat']);
  assert.deepEqual(asked, [
    'generate_video: Generate a video · about $0.40',
    'generate_video: Generate a video · about $0.40',
  ]);
  const bad = await c.callTool({ name: 'generate_video', arguments: {} });
  assert.equal(bad.isError, true);
  assert.match(JSON.stringify(bad.content), /prompt is required/);
  const missing = await c.callTool({ name: 'nope', arguments: {} });
  assert.equal(missing.isError, true);
});

/** The MCP Inspector's CLI (from npm) against `url`; its stdout, or the error it exits with. */
function inspector(url: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const cli = path.resolve('node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, '--cli', url, '--transport', 'http', ...args],
      { timeout: 60_000 },
      (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out: `${out}${err}` }),
    );
  });
}

void test('the MCP Inspector CLI: refused without the token; through a proxy adding it, lists the tools and calls video_status', async (t) => {
  const token = newServerToken();
  const s = await startToolServer({
    tools: () => fakeVideoTools(['cat.mp4']),
    confirm: () => Promise.resolve(false),
    token,
    version: '1',
  });
  t.after(() => s.close());
  const refused = await inspector(s.url, ['--method', 'tools/list']);
  assert.notEqual(refused.code, 0);
  assert.doesNotMatch(refused.out, /video_status/);
  // This version of the CLI sets no headers: a local proxy adds the bearer token an agent's client sends.
  const target = new URL(s.url);
  const proxy = createServer((req, res) => {
    const fwd = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}` },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => proxy.close());
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`;
  const listed = await inspector(url, ['--method', 'tools/list']);
  assert.equal(listed.code, 0, listed.out);
  const names = (JSON.parse(listed.out) as { tools: { name: string }[] }).tools.map((x) => x.name);
  assert.deepEqual(names, ['video_status', 'generate_video']);
  const called = await inspector(url, ['--method', 'tools/call', '--tool-name', 'video_status']);
  assert.equal(called.code, 0, called.out);
  assert.match(called.out, /tasks: cat\.mp4/);
  const billed = await inspector(url, [
    '--method',
    'tools/call',
    '--tool-name',
    'generate_video',
    '--tool-arg',
    'prompt=a cat',
  ]);
  assert.match(billed.out, /declined/);
});
