// The persisted keys bound to an extension's stores (src/platform/persistedState.ts), over fake
// Mementos: each key goes to the store it declares, never the other.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type * as vscode from 'vscode';
import { PersistedState } from '../../../src/platform/persistedState';
import { walkthroughShownKey } from '../../../src/contracts/persistedState/platform';
import { rulesAllowedUntrustedKey } from '../../../src/contracts/persistedState/chat';

function fakeMemento(): vscode.Memento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      if (value === undefined) data.delete(key);
      else data.set(key, value);
      return Promise.resolve();
    },
  } as vscode.Memento & { data: Map<string, unknown> };
}

void it('a global key is kept in globalState and a workspace key in workspaceState, each read back', async () => {
  const globalState = fakeMemento();
  const workspaceState = fakeMemento();
  const state = new PersistedState({ globalState, workspaceState } as never);
  assert.equal(state.get(walkthroughShownKey), false, 'the default before anything is stored');
  await state.set(walkthroughShownKey, true);
  await state.set(rulesAllowedUntrustedKey, true);
  assert.deepEqual([...globalState.data], [['gatewayStudio.walkthroughShown', true]]);
  assert.deepEqual([...workspaceState.data], [['gatewayStudio.chat.rulesAllowedUntrusted', true]]);
  assert.equal(state.get(walkthroughShownKey), true);
  assert.equal(state.get(rulesAllowedUntrustedKey), true);
  await state.set(walkthroughShownKey, undefined);
  assert.equal(globalState.data.size, 0, 'undefined removes the key');
});

void it('a hand-edited value reads as the default and stays stored as it was', () => {
  const globalState = fakeMemento();
  globalState.data.set('gatewayStudio.walkthroughShown', 'yes');
  const state = new PersistedState({ globalState, workspaceState: fakeMemento() } as never);
  assert.equal(state.get(walkthroughShownKey), false);
  assert.equal(globalState.data.get('gatewayStudio.walkthroughShown'), 'yes');
});
