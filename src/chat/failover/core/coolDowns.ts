/**
 * The profiles skipped for a while after they refused a request (issue 39). Kept in memory for
 * the send path (no read of the store before a request) and written through to the store, which
 * the balance tooltip reads and which keeps a relay out of balance skipped after a reload.
 */
import type { CoolDown } from '../../../contracts/persistedState/failover';
import { redact } from '../../../shared/redact';

export type { CoolDown } from '../../../contracts/persistedState/failover';

/** Where the cool-downs are kept (the extension's global state; a map in tests). */
export interface CoolDownStore {
  load(): Record<string, CoolDown>;
  save(all: Record<string, CoolDown>): PromiseLike<void> | void;
}

/** What a relay said, as a cool-down keeps it: redacted, one line, at most 300 characters. */
export function saidOf(message: string): string {
  const one = redact(message).replace(/\s+/g, ' ').trim();
  return one.length > 300 ? `${one.slice(0, 299)}…` : one;
}

export class CoolDowns {
  private all: Record<string, CoolDown>;

  constructor(
    private readonly store: CoolDownStore,
    private readonly now: () => number = Date.now,
  ) {
    this.all = { ...store.load() };
  }

  /** The profile's cool-down while it lasts; undefined once it is over. */
  active(profileId: string): CoolDown | undefined {
    const c = Object.hasOwn(this.all, profileId) ? this.all[profileId] : undefined;
    return c && c.until > this.now() ? c : undefined;
  }

  /** Skips `profileId` for `ms` from now; ended cool-downs are dropped from the store on the way. */
  start(profileId: string, cause: string, message: string, ms: number): CoolDown {
    const c: CoolDown = { until: this.now() + ms, cause, said: saidOf(message) };
    const kept = Object.entries(this.all).filter(([id, v]) => id !== profileId && v.until > this.now());
    this.all = Object.fromEntries([...kept, [profileId, c]]);
    void this.store.save({ ...this.all });
    return c;
  }

  /** The profile answered: it is asked first again from now on. */
  clear(profileId: string): void {
    if (!Object.hasOwn(this.all, profileId)) return;
    const { [profileId]: _gone, ...rest } = this.all;
    this.all = rest;
    void this.store.save({ ...this.all });
  }
}
