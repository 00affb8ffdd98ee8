import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvedHookFilesKey } from '../../../../src/contracts/persistedState/hooks';
import { loadState } from '../../../../src/contracts/persistedState/state';

const stored = (value: unknown) => ({ get: () => value, update: () => Promise.resolve() });
const sha = 'a'.repeat(64);

void test('approved hook files: global, per path a sha256; anything else approves nothing', () => {
  assert.deepEqual(
    [approvedHookFilesKey.key, approvedHookFilesKey.store, approvedHookFilesKey.version],
    ['gatewayStudio.hooks.approvedFiles', 'global', 1],
  );
  assert.deepEqual(
    loadState(stored({ '/ws/.claude/settings.json': sha, '/ws/x.json': 'yes', '/y': 1 }), approvedHookFilesKey),
    {
      '/ws/.claude/settings.json': sha,
    },
  );
  assert.deepEqual(loadState(stored('junk'), approvedHookFilesKey), {});
  assert.deepEqual(loadState(stored(undefined), approvedHookFilesKey), {});
});
