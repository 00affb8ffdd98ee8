import type * as vscode from 'vscode';
import { loadState, saveState, type StateKey, type StateStorage } from '../contracts/persistedState/state';

/** The stores of an extension context that state lives in. */
export type StateStores = Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState'>;

/**
 * The keys of src/contracts/persistedState.ts bound to the extension's stores: each key is read
 * from and written to the store it declares, so a global key cannot land in one workspace's state.
 */
export class PersistedState {
  constructor(private readonly stores: StateStores) {}

  private storage(k: StateKey<unknown>): StateStorage {
    return k.store === 'global' ? this.stores.globalState : this.stores.workspaceState;
  }

  get<T>(k: StateKey<T>): T {
    return loadState(this.storage(k), k);
  }

  /** Writes the key (undefined removes it). */
  set<T>(k: StateKey<T>, value: T | undefined): Thenable<void> {
    return Promise.resolve(saveState(this.storage(k), k, value));
  }
}

/** The extension's persisted state (cheap: a view over the context's stores). */
export function persistedState(stores: StateStores): PersistedState {
  return new PersistedState(stores);
}
