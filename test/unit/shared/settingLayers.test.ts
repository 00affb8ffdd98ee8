// The user's own value apart from the remote machine's settings, which a dev container's
// repository writes: inspect()'s globalValue merges the two, so it must never be read as the user's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repositoryValue, splitLayers } from '../../../src/shared/settingLayers';

void describe('splitLayers', () => {
  void it("takes the local user layer as the user's own and the remote machine's as a repository's", () => {
    const l = splitLayers({
      defaultValue: '',
      globalValue: 'https://container.example/v1',
      globalLocalValue: 'https://mine.example/v1',
      globalRemoteValue: 'https://container.example/v1',
    });
    assert.equal(l.globalValue, 'https://mine.example/v1');
    assert.equal(l.remoteValue, 'https://container.example/v1');
  });

  void it('a value only the dev container set is not the user’s, even though globalValue holds it', () => {
    const l = splitLayers({ globalValue: true, globalLocalValue: undefined, globalRemoteValue: true });
    assert.equal(l.globalValue, undefined);
    assert.equal(l.remoteValue, true);
  });

  void it("a host that does not split the user layer keeps globalValue as the user's", () => {
    assert.deepEqual(splitLayers({ defaultValue: 1, globalValue: 2, workspaceValue: 3 }), {
      defaultValue: 1,
      globalValue: 2,
      workspaceValue: 3,
      workspaceFolderValue: undefined,
    });
    assert.deepEqual(splitLayers(undefined), {});
  });
});

void describe('repositoryValue', () => {
  void it('the folder wins over the workspace, the workspace over the remote machine', () => {
    assert.deepEqual(repositoryValue({ remoteValue: 'r', workspaceValue: 'w', workspaceFolderValue: 'f' }), {
      value: 'f',
      layer: 'workspaceFolderValue',
    });
    assert.deepEqual(repositoryValue({ remoteValue: 'r', workspaceValue: 'w' }), {
      value: 'w',
      layer: 'workspaceValue',
    });
    assert.deepEqual(repositoryValue({ globalValue: 'u', remoteValue: 'r' }), { value: 'r', layer: 'remoteValue' });
  });

  void it("the user's own value is never a repository's; unusable values are skipped", () => {
    assert.equal(repositoryValue({ globalValue: 'u', defaultValue: 'd' }), undefined);
    assert.deepEqual(
      repositoryValue({ remoteValue: 'r', workspaceValue: '' }, (v) => typeof v === 'string' && v !== ''),
      { value: 'r', layer: 'remoteValue' },
    );
  });
});
