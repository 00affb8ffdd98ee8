import { isTaskRecord, type VideoTaskRecord, type VideoTaskStore } from './record';
import { loadState, saveState, unreadableVideoTasksKey, videoTasksKey } from '../../../contracts/persistedState/video';

/** The part of a VS Code Memento the store uses (workspace state), so it runs without VS Code. */
export interface KeyValueState {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const TASKS_KEY = videoTasksKey.key;
/** Where a tasks value that is not a map at all is set aside before the first save replaces it. */
export const UNREADABLE_TASKS_KEY = unreadableVideoTasksKey.key;

/**
 * Video task records kept in a key-value state under one key, as a map of record key to record.
 * Entries this version cannot read (a newer version's format, a corrupt entry) are kept exactly
 * as they are through every save and remove: after a downgrade, the id of a task the gateway
 * bills for must still be there when the newer version comes back.
 */
export class StateTaskStore implements VideoTaskStore {
  constructor(private readonly state: KeyValueState) {}

  /** Every stored entry, readable or not, keyed as stored. */
  private raw(): Record<string, unknown> {
    return loadState(this.state, videoTasksKey);
  }

  load(): VideoTaskRecord[] {
    return Object.values(this.raw()).filter(isTaskRecord);
  }

  /** Entries kept but not understood by this version (for a log line or a details view). */
  unreadable(): { key: string; value: unknown }[] {
    return Object.entries(this.raw())
      .filter(([, v]) => !isTaskRecord(v))
      .map(([key, value]) => ({ key, value }));
  }

  async save(record: VideoTaskRecord): Promise<void> {
    await this.setAsideUnreadableWhole();
    const all = this.raw();
    all[record.key] = record;
    await saveState(this.state, videoTasksKey, all);
  }

  async remove(key: string): Promise<void> {
    await this.setAsideUnreadableWhole();
    const all = this.raw();
    // Only a record this version understands is removed; an unreadable entry is never touched.
    if (!isTaskRecord(all[key])) return;
    delete all[key];
    await saveState(this.state, videoTasksKey, all);
  }

  /** A stored value that is not a map (another format altogether) is copied aside, once, before it is replaced. */
  private async setAsideUnreadableWhole(): Promise<void> {
    const value = this.state.get(TASKS_KEY);
    const isMap = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (value === undefined || isMap) return;
    if (this.state.get(UNREADABLE_TASKS_KEY) === undefined) await saveState(this.state, unreadableVideoTasksKey, value);
  }
}
