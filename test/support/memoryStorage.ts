import type { KeyValueStorage } from '../../src/chat/conversation/core/contracts';

/** An in-memory {@link KeyValueStorage} for tests, round-tripping values through JSON like a Memento. */
export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    // Round-trip through JSON like a real Memento, so tests see what persistence would keep.
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return Promise.resolve();
  }
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
}
