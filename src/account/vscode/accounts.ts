import type * as vscode from 'vscode';
import { HttpClient } from '../../api/transport/http';
import { gatewayHttpOptions } from '../../platform/gateway';
import type { Services } from '../../platform/services';
import { persistedState } from '../../platform/persistedState';
import { balanceSourcesKey } from '../../contracts/persistedState/account';
import { settingLayers, userValue } from '../../platform/userSettings';
import { spendSettingsFrom, type SpendSettings } from '../spend/core/spendSettings';
import { repositoryValue } from '../../shared/settingLayers';
import { AccountState, type AccountSnapshot } from '../balance/core/accountState';
import type { SourceKind } from '../balance/core/detect';
import { transportOver, type AccountTransport } from '../../api/account/transport';
import { maskedKeyCheck } from '../balance/core/sources';
import { PriceBook, parsePricing, pricesFromSettings } from '../pricing/core/pricing';

export type { SpendSettings } from '../spend/core/spendSettings';

/**
 * Every spend setting is read from the user's own settings only (spendSettings.ts says why): a
 * workspace's or a dev container's value never reaches it.
 */
export function readSpendSettings(): SpendSettings {
  return spendSettingsFrom((key) => userValue(`spend.${key}`));
}

/** One gateway's account with what the feature keeps beside it. */
export interface AccountEntry {
  /** The normalised `/v1` base URL. */
  gateway: string;
  state: AccountState;
  transport: AccountTransport;
  /** Uses since the last reading, to attribute a balance change to one of them (a clip names its task). */
  pending: Array<{ model: string; clip?: { videoId: string; end: string }; image?: { jobId: string } }>;
  lastQuota?: number;
  prices?: { book: PriceBook; at: number };
  pricesLoading?: Promise<void>;
}

const PRICES_TTL_MS = 10 * 60_000;

/** A short non-reversible fingerprint, enough to tell two keys apart (the key is never stored). */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/**
 * The accounts by gateway (base URL + key): a second gateway, or a second key, is a second
 * {@link AccountState}. `current()` is the one the settings name now.
 */
export class Accounts implements vscode.Disposable {
  private readonly entries = new Map<string, AccountEntry>();
  /** The last account each profile (its chat gateway) was found to have. */
  private readonly byProfile = new Map<string, AccountEntry>();

  constructor(
    private readonly s: Services,
    private readonly onChange: (e: AccountEntry, snap: AccountSnapshot) => void,
  ) {}

  /**
   * The account for the current settings, or undefined when no gateway is set (or the user
   * refused a workspace's gateway). May ask about a workspace-set gateway: callers that must
   * not ask (idle reads) check {@link mayAskAboutGateway} first.
   */
  async current(host: 'chat' | 'video' = 'chat'): Promise<AccountEntry | undefined> {
    try {
      return await this.forProfile(this.s.profiles.activeId(), host);
    } catch {
      return undefined;
    }
  }

  /**
   * The account of one profile, read with that profile's own base URL and key only (never
   * another's). Throws the reason (no key, no address, a profile that is gone) as words.
   */
  async forProfile(profileId: string, host: 'chat' | 'video' = 'chat'): Promise<AccountEntry> {
    const o = await gatewayHttpOptions(this.s, host, undefined, profileId);
    const http = new HttpClient(o);
    // A second profile is a second account, even on the same gateway with the same key; a
    // profile whose headers changed gets a new entry (the old one would read with the old ones).
    const headers = fingerprint(JSON.stringify([o.headers ?? {}, o.modelHeaders ?? {}]));
    const id = `${profileId}\n${http.baseUrl}\n${o.apiKey ? fingerprint(o.apiKey) : ''}\n${headers}`;
    let e = this.entries.get(id);
    if (!e) {
      const remembered = persistedState(this.s.context).get(balanceSourcesKey)[http.baseUrl];
      const transport = transportOver(http);
      const entry: AccountEntry = {
        gateway: http.baseUrl,
        transport,
        pending: [],
        state: new AccountState({
          gateway: http.baseUrl,
          transport: () => Promise.resolve(transport),
          custom: () => readSpendSettings().custom,
          keyCheck: o.apiKey ? maskedKeyCheck(o.apiKey) : undefined,
          remembered,
          log: (level, msg) => this.s.log[level](`Account: ${msg}`),
          onSource: (src) => void this.rememberSource(http.baseUrl, src),
          onChange: (snap) => this.onChange(entry, snap),
        }),
      };
      e = entry;
      this.entries.set(id, e);
    }
    if (host === 'chat') this.byProfile.set(profileId, e);
    return e;
  }

  /**
   * The account of the profile that answered (after a failover, not the active one: the answer is
   * counted and priced where it was billed); the active one's when none is named.
   */
  async answering(profileId: string | undefined): Promise<AccountEntry | undefined> {
    if (profileId === undefined || profileId === this.s.profiles.activeId()) return this.current();
    return this.forProfile(profileId).catch(() => undefined);
  }

  /** The account a profile had when last asked for, without reading anything; undefined before. */
  known(profileId: string): AccountEntry | undefined {
    return this.byProfile.get(profileId);
  }

  private async rememberSource(gateway: string, src: SourceKind | undefined): Promise<void> {
    const all: Record<string, SourceKind> = { ...persistedState(this.s.context).get(balanceSourcesKey) };
    if (src) all[gateway] = src;
    else delete all[gateway];
    // Bounded: the last 50 gateways.
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - 50))) delete all[k];
    await persistedState(this.s.context).set(balanceSourcesKey, all);
  }

  /**
   * The prices in force for `e`: `/api/pricing` (read at most every ten minutes, never on a send
   * path) with the user's own prices over them.
   */
  async prices(e: AccountEntry, settings: SpendSettings): Promise<PriceBook> {
    const unit = e.state.snapshot().unit;
    const own = pricesFromSettings(settings.prices, unit);
    if (e.prices && Date.now() - e.prices.at < PRICES_TTL_MS) return new PriceBook(this.gatewayPrices(e), own);
    // One read for the callers that come together (the ledger and the chat price the same answer).
    e.pricesLoading ??= this.loadPrices(e, settings).finally(() => (e.pricesLoading = undefined));
    await e.pricesLoading;
    return new PriceBook(this.gatewayPrices(e), own);
  }

  private async loadPrices(e: AccountEntry, settings: SpendSettings): Promise<void> {
    const unit = e.state.snapshot().unit;
    let gateway: PriceBook = new PriceBook();
    const f = await e.transport.get('/api/pricing');
    if (f.kind === 'json') {
      const p = parsePricing(f.body, { group: settings.group, unit });
      if (p.ok) {
        gateway = new PriceBook(p.value.prices);
        for (const d of p.value.dropped.slice(0, 5)) this.s.log.warn(`Account: /api/pricing: dropped ${d}`);
      } else this.s.log.warn(`Account: /api/pricing unusable: ${p.why}`);
    } else if (f.kind === 'failed') this.s.log.warn(`Account: GET /api/pricing ${f.why}`);
    e.prices = { book: gateway, at: Date.now() };
  }

  private gatewayPrices(e: AccountEntry) {
    return e.prices ? e.prices.book.all() : [];
  }

  /**
   * Marks the prices stale: the next {@link prices} reads them again, while a quote meanwhile
   * still finds the last ones (dropping them would leave a moment with no price, and so no
   * question above `confirmAbove`, after any settings change).
   */
  forgetPrices(): void {
    for (const e of this.entries.values()) if (e.prices) e.prices.at = 0;
  }

  /**
   * The account clips are billed to. A `videoBaseUrl` of its own is a gateway of its own: its
   * account when it reports one (or tried to: a failing one is still its account), else the chat
   * gateway's (a second address of the same relay: the usual reason for a video URL). `read`:
   * whether an unread video account may be read now (never from a quote, which makes no request).
   */
  async forClips(chat: AccountEntry | undefined, o: { read: boolean }): Promise<AccountEntry | undefined> {
    const v = await this.videoEntry(chat);
    if (!v) return chat;
    if (v.state.snapshot().status === 'unknown') {
      if (!o.read) return chat;
      await v.state.refreshNow();
    }
    return v.state.snapshot().status === 'none' ? chat : v;
  }

  /** The account of a `videoBaseUrl` that is another gateway than `chat`'s, unread or not; else undefined. */
  async videoEntry(chat: AccountEntry | undefined): Promise<AccountEntry | undefined> {
    if (mayAskAboutGateway('videoBaseUrl')) return undefined;
    const v = await this.current('video');
    return !v || v === chat || v.gateway === chat?.gateway ? undefined : v;
  }

  dispose(): void {
    for (const e of this.entries.values()) e.state.dispose();
    this.entries.clear();
    this.byProfile.clear();
  }
}

/** Whether reading the account now could put a dialog in front of the user (a workspace-set gateway). */
export function mayAskAboutGateway(setting: 'baseUrl' | 'videoBaseUrl' = 'baseUrl'): boolean {
  return repositoryValue(settingLayers(setting), (v) => v !== undefined && v !== '') !== undefined;
}
