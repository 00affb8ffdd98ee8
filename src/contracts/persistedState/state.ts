/**
 * Every key the extension keeps in VS Code's `globalState`, `workspaceState` and secret storage is
 * declared in this folder, once, with its store, its check, its default, its version and how
 * older stored shapes are read (after rust-analyzer's `persistent_state.ts`): this file holds the
 * machinery, and one file per feature holds that feature's keys (./platform.ts, ./account.ts,
 * ./chat.ts, ./completion.ts, ./video.ts). One file per feature because the bundler splits by
 * file: keys read only by a feature loaded later stay out of the activation bundle. Features
 * read and write state only through these declarations ({@link loadState}, {@link saveState};
 * src/platform/persistedState.ts binds them to the extension's stores), so a key's name and shape
 * are in one place.
 *
 * What is stored is users' data (conversations, video tasks the gateway bills for, spend ledgers,
 * profiles, keys): a read never writes, so a value this version cannot read stays as it is, and
 * each shape some released version stored stays readable.
 *
 * To add a key:
 * 1. declare it in its feature's file as `export const <name>Key = stateKey({...})` (a family of
 *    per-item keys like `chatConversation`, a secret slot in `SECRETS` of ./platform.ts): a
 *    `gatewayStudio.` name; its store (`global` when no workspace file may decide it, or it is
 *    per machine; `workspace` for the project's own); a check built from the combinators below
 *    that drops what it does not understand; its default; `version` is 1 for a new key;
 * 2. read and write it with `loadState(storage, <name>Key)` / `saveState(…)`, or through
 *    `persistedState(context)` (src/platform/persistedState.ts) where the context is at hand;
 * 3. test its check and default in test/unit/contracts/persistedState/<file>.test.ts.
 *
 * To change a key's shape: bump `version`, add to `migrations` `{ from: <old version>, read }`
 * (`read` recognises the old shape and returns today's), and add a test that reads a value of the
 * old shape.
 *
 * No key roams with Settings Sync (`setKeysForSync` is not called): answers about origins, spend
 * and keys belong to one machine. A key that should roam is a global one passed to
 * `context.globalState.setKeysForSync` at activation.
 */
export type StateStore = 'global' | 'workspace';

/**
 * A stored value's check: the value in today's shape, or undefined when `raw` is not one. Plain
 * functions, not zod: several keys are read at activation, whose bundle has no room for zod.
 */
export type StateCheck<T> = (raw: unknown) => T | undefined;

/** An older stored shape and how it reads as today's. */
export interface StateMigration<T> {
  /** The version that stored this shape. */
  readonly from: number;
  /** Today's value for a value of that shape; undefined when `raw` is not of it. */
  readonly read: StateCheck<T>;
}

export interface StateKey<T> {
  readonly key: string;
  readonly store: StateStore;
  /** The version of the shape written now (1 unless it changed since the key was added). */
  readonly version: number;
  /** Today's shape; it drops what it does not understand rather than failing the whole value. */
  readonly check: StateCheck<T>;
  /** The value when nothing (or nothing readable) is stored. */
  readonly fallback: () => T;
  readonly migrations: readonly StateMigration<T>[];
}

/** What reading and writing a key needs: a `vscode.Memento` satisfies it, tests pass a map. */
export interface StateStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export function stateKey<T>(d: {
  key: string;
  store: StateStore;
  version?: number;
  check: StateCheck<T>;
  fallback: () => T;
  migrations?: StateMigration<T>[];
}): StateKey<T> {
  return { version: 1, migrations: [], ...d };
}

/** Today's shape of `raw`, or the migrated one; undefined when absent or unreadable. */
export function decodeState<T>(k: StateKey<T>, raw: unknown): T | undefined {
  if (raw === undefined) return undefined;
  const now = k.check(raw);
  if (now !== undefined) return now;
  for (const m of [...k.migrations].sort((a, b) => b.from - a.from)) {
    const up = m.read(raw);
    if (up !== undefined) return up;
  }
  return undefined;
}

/** The key's value in `storage`, its default when absent or unreadable. */
export function loadState<T>(storage: StateStorage, k: StateKey<T>): T {
  return decodeState(k, storage.get(k.key)) ?? k.fallback();
}

/** Writes the key (undefined removes it). */
export function saveState<T>(storage: StateStorage, k: StateKey<T>, value: T | undefined): PromiseLike<void> {
  return storage.update(k.key, value);
}

export const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const map: StateCheck<Record<string, unknown>> = (v) => (isMap(v) ? { ...v } : undefined);
export const bool: StateCheck<boolean> = (v) => (typeof v === 'boolean' ? v : undefined);
export const text: StateCheck<string> = (v) => (typeof v === 'string' ? v : undefined);
export const finite: StateCheck<number> = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const int: StateCheck<number> = (v) => (Number.isInteger(v) ? (v as number) : undefined);
export const oneOf =
  <const L extends readonly string[]>(...values: L): StateCheck<L[number]> =>
  (v) =>
    values.includes(v as string) ? (v as L[number]) : undefined;

/** A map whose entries that do not parse are dropped (each entry stands alone: one bad one costs no other). */
export function entries<T>(value: StateCheck<T>): StateCheck<Record<string, T>> {
  return (v) => {
    if (!isMap(v)) return undefined;
    const out: Record<string, T> = {};
    for (const [k, e] of Object.entries(v)) {
      const ok = value(e);
      if (ok !== undefined && k !== '__proto__') out[k] = ok;
    }
    return out;
  };
}

/** A list whose items that do not parse are dropped. */
export function items<T>(item: StateCheck<T>): StateCheck<T[]> {
  return (v) =>
    Array.isArray(v)
      ? v.flatMap((e) => {
          const ok = item(e);
          return ok === undefined ? [] : [ok];
        })
      : undefined;
}

/** An object with these fields (each required), and only these. */
export function fields<T>(shape: { [K in keyof T]-?: StateCheck<T[K]> }): StateCheck<T> {
  return (v) => {
    if (!isMap(v)) return undefined;
    const out: Partial<T> = {};
    for (const k of Object.keys(shape) as (keyof T)[]) {
      const ok = shape[k](v[k as string]);
      if (ok === undefined) return undefined;
      out[k] = ok;
    }
    return out as T;
  };
}

export const emptyMap = (): Record<string, never> => ({});
