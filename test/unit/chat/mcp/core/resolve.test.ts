// A definition's variables filled, its env file read, and a workspace server kept inside its folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMcpConfig } from '../../../../../src/chat/mcp/core/config';
import { parseEnvFile, resolveServer } from '../../../../../src/chat/mcp/core/resolve';

const vars = (folder: string) => ({
  workspaceFolder: folder,
  userHome: '/home/u',
  env: (n: string) => (n === 'FROM_ENV' ? 'e' : undefined),
  input: () => Promise.resolve('typed'),
});

void test('dotenv lines: export, quotes, comments', () => {
  assert.deepEqual(parseEnvFile('# c\nA=1\nexport B="two words"\nC=x # note\nbad line\nD=\'q\''), {
    A: '1',
    B: 'two words',
    C: 'x',
    D: 'q',
  });
});

void test('a stdio server: variables filled, env file under the definition, cwd its folder', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'mcp-resolve-'));
  await writeFile(path.join(folder, '.env'), 'A=file\nB=file\n');
  const [d] = readMcpConfig(
    {
      servers: {
        s: {
          command: '${workspaceFolder}/bin',
          args: ['${input:t}'],
          env: { B: '${env:FROM_ENV}' },
          envFile: '${workspaceFolder}/.env',
        },
      },
    },
    { scope: 'workspace', source: 'x', folder },
  ).servers;
  const r = await resolveServer(d!, vars(folder));
  assert.equal(r.command, `${folder}/bin`);
  assert.deepEqual(r.args, ['typed']);
  assert.deepEqual(r.env, { A: 'file', B: 'e' });
  assert.equal(r.cwd, folder);
});

void test("a workspace server's env file or folder outside its folder is refused", async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'mcp-resolve-'));
  const read = (raw: unknown) =>
    readMcpConfig({ servers: { s: raw } }, { scope: 'workspace', source: 'x', folder }).servers[0]!;
  await assert.rejects(
    resolveServer(read({ command: 'node', envFile: '../../.ssh/env' }), vars(folder)),
    /outside the workspace folder/,
  );
  await assert.rejects(
    resolveServer(read({ command: 'node', cwd: '/etc' }), vars(folder)),
    /outside the workspace folder/,
  );
  await assert.rejects(
    resolveServer(read({ command: 'node', envFile: 'missing.env' }), vars(folder)),
    /cannot be read/,
  );
});

void test('an HTTP server: url and headers filled', async () => {
  const [d] = readMcpConfig(
    { servers: { h: { type: 'http', url: 'http://127.0.0.1/${env:FROM_ENV}', headers: { A: 'Bearer ${input:t}' } } } },
    { scope: 'user', source: 'setting' },
  ).servers;
  const r = await resolveServer(d!, vars('/w'));
  assert.equal(r.url, 'http://127.0.0.1/e');
  assert.deepEqual(r.headers, { A: 'Bearer typed' });
});
