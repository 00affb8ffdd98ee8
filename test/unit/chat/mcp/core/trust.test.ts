// What a hostile repository meets: its servers start only in a trusted workspace, only for the
// exact definition the user approved, and never with our key in their env, arguments or headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMcpConfig, type McpServerDef } from '../../../../../src/chat/mcp/core/config';
import { approvalKey, definitionHash, secretLeak, startVerdict } from '../../../../../src/chat/mcp/core/trust';

const def = (raw: unknown, scope: 'workspace' | 'user' = 'workspace'): McpServerDef =>
  readMcpConfig({ servers: { s: raw } }, { scope, source: '/w/.mcp.json', folder: '/w' }).servers[0]!;
const base = def({ command: 'node', args: ['server.js'], env: { A: '1' } });
const hash = definitionHash(base);

void test('a workspace server never starts in Restricted Mode, even when approved before', () => {
  assert.deepEqual(startVerdict(base, { workspaceTrusted: false, approvedHash: hash }), {
    start: false,
    why: 'restricted',
    ask: false,
  });
});

void test('a workspace server starts only for the approved definition; a changed one asks again', () => {
  assert.deepEqual(startVerdict(base, { workspaceTrusted: true, approvedHash: undefined }), {
    start: false,
    why: 'notApproved',
    ask: true,
  });
  assert.deepEqual(startVerdict(base, { workspaceTrusted: true, approvedHash: hash }), {
    start: true,
    why: 'approved',
  });
  for (const changed of [
    { command: 'node', args: ['evil.js'], env: { A: '1' } },
    { command: 'node', args: ['server.js'], env: { A: '1', NODE_OPTIONS: '--require ./evil.js' } },
    { command: 'node', args: ['server.js'], env: { A: '2' } },
    { command: 'node', args: ['server.js'], env: { A: '1' }, cwd: 'other' },
    { command: 'bash', args: ['server.js'], env: { A: '1' } },
  ]) {
    assert.deepEqual(startVerdict(def(changed), { workspaceTrusted: true, approvedHash: hash }), {
      start: false,
      why: 'changed',
      ask: true,
    });
  }
  // Declined in this window: not asked again until it changes.
  assert.deepEqual(startVerdict(base, { workspaceTrusted: true, approvedHash: undefined, declinedHash: hash }), {
    start: false,
    why: 'declined',
    ask: false,
  });
});

void test('the hash ignores key order and covers HTTP addresses and headers', () => {
  assert.equal(
    definitionHash(def({ command: 'node', env: { B: '2', A: '1' } })),
    definitionHash(def({ command: 'node', env: { A: '1', B: '2' } })),
  );
  const h = def({ type: 'http', url: 'https://a/mcp', headers: { X: '1' } });
  assert.notEqual(definitionHash(h), definitionHash(def({ type: 'http', url: 'https://b/mcp', headers: { X: '1' } })));
  assert.notEqual(definitionHash(h), definitionHash(def({ type: 'http', url: 'https://a/mcp', headers: { X: '2' } })));
  assert.equal(approvalKey(base), '/w/.mcp.json#s');
});

void test("the user's own servers start without approval", () => {
  assert.deepEqual(
    startVerdict(def({ command: 'node' }, 'user'), { workspaceTrusted: false, approvedHash: undefined }),
    {
      start: true,
      why: 'user',
    },
  );
});

void test('our key in env, args, url or headers stops the start unless the user typed it', () => {
  const key = 'sk-gateway-0123456789';
  const r = { def: base, command: 'node', args: ['a'], env: { K: `x${key}` } };
  assert.equal(secretLeak(r, [key], []), 'env.K');
  assert.equal(secretLeak({ def: base, command: 'node', args: ['--key', key] }, [key], []), 'args[1]');
  assert.equal(secretLeak({ def: base, url: `https://x/?k=${key}`, headers: {} }, [key], []), 'url');
  assert.equal(
    secretLeak({ def: base, url: 'https://x', headers: { Authorization: `Bearer ${key}` } }, [key], []),
    'headers.Authorization',
  );
  assert.equal(secretLeak(r, [key], [key]), undefined);
  assert.equal(secretLeak(r, ['short'], []), undefined);
  assert.equal(secretLeak({ def: base, command: 'node', args: [], env: { K: 'other' } }, [key], []), undefined);
});
