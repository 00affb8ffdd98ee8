// MCP definitions in the three documented spellings read into one shape; what is not understood
// is a problem naming its server, never a half-read server that would start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillVariables, parseMcpFile, readMcpConfig } from '../../../../../src/chat/mcp/core/config';

const where = { scope: 'workspace' as const, source: '/w/.vscode/mcp.json', folder: '/w' };

void test("VS Code's servers (stdio and http, with comments) and inputs are read", () => {
  const c = parseMcpFile(
    `{
      // the repository's servers
      "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
      "servers": {
        "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": { "A": "1", "N": 2 } },
        "remote": { "type": "http", "url": "https://mcp.example/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      },
    }`,
    where,
  );
  assert.deepEqual(c.problems, []);
  assert.deepEqual(c.inputs, [{ id: 'token', description: 'API token', password: true }]);
  assert.equal(c.servers.length, 2);
  const [s, h] = c.servers;
  assert.equal(s?.type, 'stdio');
  assert.deepEqual(s?.type === 'stdio' && s.env, { A: '1', N: '2' });
  assert.equal(s?.folder, '/w');
  assert.equal(h?.type, 'http');
  assert.equal(h?.type === 'http' && h.headers['Authorization'], 'Bearer ${input:token}');
});

void test("Claude's .mcp.json (mcpServers; a url without type is HTTP; sse kept apart)", () => {
  const c = readMcpConfig(
    { mcpServers: { a: { url: 'http://127.0.0.1:1/mcp' }, b: { type: 'sse', url: 'http://x/sse' } } },
    { scope: 'workspace', source: '/w/.mcp.json' },
  );
  assert.deepEqual(
    c.servers.map((s) => s.type),
    ['http', 'sse'],
  );
});

void test('bad definitions are problems with the server named, the good ones still read', () => {
  const c = readMcpConfig(
    {
      servers: {
        ok: { command: 'node' },
        noCommand: { args: ['x'] },
        badArgs: { command: 'node', args: 'x' },
        'bad name!': { command: 'node' },
        weird: { type: 'websocket', url: 'ws://x' },
        badEnv: { command: 'node', env: { A: { nested: true } } },
      },
      inputs: [{ type: 'pickString', id: 'p' }, {}],
    },
    where,
  );
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['ok'],
  );
  const text = c.problems.map((p) => p.message).join('\n');
  for (const s of ['noCommand', 'badArgs', 'bad name!', 'weird', 'badEnv', 'Input "p"', 'without an "id"']) {
    assert.ok(text.includes(s), `${s} in ${text}`);
  }
});

void test('a file that is not JSON says so with its line', () => {
  const c = parseMcpFile('{\n "servers": {\n  "a": { "command": }\n}', where);
  assert.equal(c.servers.length, 0);
  assert.equal(c.problems[0]?.line, 3);
  assert.match(c.problems[0]!.message, /Not valid JSON/);
  assert.match(readMcpConfig([], where).problems[0]!.message, /not a JSON object/);
});

void test('variables: folder, home, env, inputs; an unknown one or an unanswered input throws', async () => {
  const asked: string[] = [];
  const v = {
    workspaceFolder: '/w',
    userHome: '/home/u',
    env: (n: string) => ({ HOME_X: 'hx' })[n],
    input: (id: string) => {
      asked.push(id);
      return Promise.resolve(id === 'tok' ? 's3cret' : undefined);
    },
  };
  assert.equal(
    await fillVariables('${workspaceFolder}/a ${userHome} ${env:HOME_X}${env:NONE} ${input:tok}', v),
    '/w/a /home/u hx s3cret',
  );
  await assert.rejects(fillVariables('${input:other}', v), /No value was given for \$\{input:other\}/);
  await assert.rejects(fillVariables('${command:evil}', v), /not known/);
  await assert.rejects(fillVariables('${workspaceFolder}', { ...v, workspaceFolder: undefined }), /no folder/);
  assert.deepEqual(asked, ['tok', 'other']);
});
