// Which web domains fetch_url may fetch without asking: the user's "Always allow" on a fetch card,
// kept in the user's global state (every workspace, never one: a repository cannot pre-allow a
// domain its instructions then send the code to).
import type { TrustStore } from '../../tools/core/runner';
import { loadState, saveState, webDomainsKey } from '../../../contracts/persistedState/chat';
import type { StateStorage } from '../../../contracts/persistedState/state';
import { hostKey } from './addressRule';

const PREFIX = 'fetch_url:';

/** The trust key of a host: prefixed, so no host name can stand for a tool's own trust. */
export function domainKey(hostname: string): string {
  return `${PREFIX}${hostKey(hostname)}`;
}

/** The runner's trust store for fetch_url calls, one key per domain. */
export class DomainTrust implements TrustStore {
  constructor(private readonly storage: StateStorage) {}

  domains(): string[] {
    return loadState(this.storage, webDomainsKey);
  }

  isTrusted(key: string): boolean {
    return key.startsWith(PREFIX) && this.domains().includes(key.slice(PREFIX.length));
  }

  async trust(key: string): Promise<void> {
    if (!key.startsWith(PREFIX)) return;
    const host = key.slice(PREFIX.length);
    const now = this.domains();
    if (!now.includes(host)) await saveState(this.storage, webDomainsKey, [...now, host].sort());
  }

  /** Takes a domain's approval back (the next fetch from it asks again). */
  async forget(host: string): Promise<void> {
    const h = hostKey(host);
    await saveState(
      this.storage,
      webDomainsKey,
      this.domains().filter((d) => d !== h),
    );
  }
}
