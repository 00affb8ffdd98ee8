import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  approvedMcpServersKey,
  mcpInputSlot,
  mcpReadOnlyServersKey,
} from '../../../../src/contracts/persistedState/mcp';
import { loadState } from '../../../../src/contracts/persistedState/state';

const stored = (value: unknown) => ({ get: () => value, update: () => Promise.resolve() });
const sha = 'b'.repeat(64);

void test('approved MCP servers: global, per server a sha256; anything else approves nothing', () => {
  assert.deepEqual(
    [approvedMcpServersKey.key, approvedMcpServersKey.store, approvedMcpServersKey.version],
    ['gatewayStudio.mcp.approvedServers', 'global', 1],
  );
  assert.deepEqual(loadState(stored({ '/w/.mcp.json#a': sha, '/w/.mcp.json#b': 'yes', c: 1 }), approvedMcpServersKey), {
    '/w/.mcp.json#a': sha,
  });
  assert.deepEqual(loadState(stored('junk'), approvedMcpServersKey), {});
});

void test('read-only servers: per workspace, names only', () => {
  assert.equal(mcpReadOnlyServersKey.store, 'workspace');
  assert.deepEqual(loadState(stored(['a', 2, 'b']), mcpReadOnlyServersKey), ['a', 'b']);
  assert.deepEqual(loadState(stored(undefined), mcpReadOnlyServersKey), []);
});

void test("an input's secret slot is per declaring file", () => {
  assert.notEqual(mcpInputSlot('/w/.mcp.json', 'token'), mcpInputSlot('user', 'token'));
  assert.equal(mcpInputSlot('user', 'token'), 'gatewayStudio.mcp.input.user#token');
});
