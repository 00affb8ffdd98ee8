import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KeyValueStorage } from '../../conversation/core/contracts';

/**
 * Conversations as one JSON file each (plus the index) in the extension's storage folder, instead
 * of keys of `workspaceState`: VS Code keeps an extension's whole workspace state as one JSON value
 * that every update sends and serialises again, and that is parsed before `activate()` runs, so
 * with many conversations every save (one each 2 s while an answer streams) cost the size of all
 * of them. Here a save writes one file.
 *
 * What `workspaceState` held before stays readable through `legacy` until each key has been
 * written here: a key is removed from it only after its file is in place, so a migration cut off
 * at any point (a crash, a full disk) loses nothing and resumes at the next start.
 */

/** Keys are our own names (`gatewayStudio.chat.conversation.<id>`): they are used as file names. */
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const SUFFIX = '.json';

export interface FileStorageOptions {
  folder: string;
  /** Where the keys lived before (workspaceState); read until moved, then emptied key by key. */
  legacy?: KeyValueStorage;
  /** The keys that belong here (the legacy storage holds other features' keys too). */
  owns: (key: string) => boolean;
  warn?: (msg: string) => void;
}

export class FileStorage implements KeyValueStorage {
  /**
   * What was written (as its JSON, taken when `update` is called: the caller may go on changing
   * the object while the write waits), so `get` after `update` answers at once, as a Memento does.
   * `undefined` marks a deleted key.
   */
  private readonly written = new Map<string, string | undefined>();
  /** Each key's writes in order: a save every 2 s must not let an older write land last. */
  private readonly queues = new Map<string, Promise<void>>();
  private fileKeys: Set<string> | undefined;

  constructor(private readonly o: FileStorageOptions) {}

  get folder(): string {
    return this.o.folder;
  }

  get<T>(key: string): T | undefined {
    if (this.written.has(key)) {
      const json = this.written.get(key);
      return json === undefined ? undefined : (JSON.parse(json) as T);
    }
    if (this.files().has(key)) return this.readFile(key) as T;
    return this.o.legacy?.get<T>(key);
  }

  update(key: string, value: unknown): Promise<void> {
    if (!SAFE_KEY.test(key) || !this.o.owns(key))
      return Promise.reject(new Error(`not a key this storage keeps: ${JSON.stringify(key)}`));
    let json: string | undefined;
    try {
      json = value === undefined ? undefined : JSON.stringify(value);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    this.written.set(key, json);
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.write(key, json));
    // The chain goes on after a failed write; the caller still sees its own failure.
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return next;
  }

  keys(): readonly string[] {
    const out = new Set(this.files());
    for (const k of this.o.legacy?.keys() ?? []) if (this.o.owns(k)) out.add(k);
    for (const [k, v] of this.written) {
      if (v === undefined) out.delete(k);
      else out.add(k);
    }
    return [...out];
  }

  /**
   * Moves every key still in the legacy storage into files (each one: file written, then the key
   * removed). Returns how many moved; a key that fails stays where it was and is named in `warn`.
   */
  async migrate(): Promise<number> {
    const legacy = this.o.legacy;
    if (!legacy) return 0;
    let moved = 0;
    for (const key of legacy.keys()) {
      // A key written through here meanwhile (a save while this runs) is newer than the old copy.
      if (!this.o.owns(key) || this.files().has(key) || this.written.has(key)) continue;
      const value = legacy.get<unknown>(key);
      if (value === undefined) continue;
      try {
        await this.update(key, value);
        moved += 1;
      } catch (e) {
        this.o.warn?.(`history: ${key} stays in workspace state: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return moved;
  }

  /** Settles when every write asked for so far has landed (or failed). */
  async flushed(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  private async write(key: string, json: string | undefined): Promise<void> {
    const file = path.join(this.o.folder, key + SUFFIX);
    if (json === undefined) {
      await fs.promises.rm(file, { force: true });
      this.files().delete(key);
    } else {
      await fs.promises.mkdir(this.o.folder, { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.promises.writeFile(tmp, json);
        await fs.promises.rename(tmp, file);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
        throw e;
      }
      this.files().add(key);
    }
    // Only now that the file holds it (or it is deleted here too) may the old copy go.
    if (this.o.legacy?.get(key) !== undefined) await this.o.legacy.update(key, undefined);
  }

  /** The keys that have a file; read once, then kept by our own writes. */
  private files(): Set<string> {
    if (this.fileKeys) return this.fileKeys;
    const keys = new Set<string>();
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.o.folder);
    } catch {
      // No folder yet: nothing stored here.
    }
    for (const n of names) {
      if (!n.endsWith(SUFFIX)) continue;
      const key = n.slice(0, -SUFFIX.length);
      if (SAFE_KEY.test(key) && this.o.owns(key)) keys.add(key);
    }
    this.fileKeys = keys;
    return keys;
  }

  /**
   * A file's value. One that does not parse reads as a value no schema accepts, so the store
   * reports it as unreadable and leaves the file as it is (never removed, never overwritten).
   */
  private readFile(key: string): unknown {
    const file = path.join(this.o.folder, key + SUFFIX);
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.o.warn?.(`history: ${file} could not be read: ${why}`);
      return { unreadable: why };
    }
  }
}
