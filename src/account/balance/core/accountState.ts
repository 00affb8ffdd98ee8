/**
 * One gateway's account (its base URL and key): the balance last read, where it came from, when,
 * the key's expiry, the top-up link and today's spend. A second gateway is a second instance.
 * Reads happen only here, off the chat's send path: at most once a minute while idle, and once,
 * debounced, after answers and clips.
 */
import { USD, type MoneyUnit } from './money';
import { readBalance, type BalanceReading, type CustomSource, type SourceKind } from './detect';
import type { AccountTransport } from '../../../api/account/transport';
import type { KeyCheck } from './sources';

export type AccountStatus = 'unknown' | 'ok' | 'unavailable' | 'none';

export interface AccountSnapshot {
  /** The gateway's `/v1` base URL (never the key). */
  gateway: string;
  status: AccountStatus;
  /** The remembered source (kept while a read fails, so the next read goes straight to it). */
  source?: SourceKind;
  reading?: BalanceReading;
  /**
   * The gateway's unit, for prices and costs: what its `/api/status` said at the last read, else
   * the unit of the last balance reading (a gateway without new-api's status), dollars before any.
   */
  unit: MoneyUnit;
  /** When the last reading was taken (ms since the epoch). */
  readAt?: number;
  /** Why the balance is unavailable, for the log. */
  why?: string;
  /** What today's answers and clips cost, in quota units (from the ledger). */
  todayQuota: number;
}

export interface AccountStateDeps {
  gateway: string;
  /** The transport for this gateway; built on each read (the key is read from storage then). */
  transport: () => Promise<AccountTransport>;
  custom?: () => CustomSource | undefined;
  /** Tells this account's key in a relay's masked label (sources.ts `maskedKeyCheck`). */
  keyCheck?: KeyCheck;
  onChange?: (s: AccountSnapshot) => void;
  log?: (level: 'info' | 'warn', msg: string) => void;
  now?: () => number;
  /** Least time between two idle reads (default one minute). */
  idleMs?: number;
  /** Quiet time after the last answer or clip before reading (default 1.5 s). */
  debounceMs?: number;
  /** A balance read before that, remembered across windows. */
  remembered?: SourceKind;
  /** Called when a source was found (to remember it). */
  onSource?: (s: SourceKind | undefined) => void;
}

export class AccountState {
  private snap: AccountSnapshot;
  private lastAttempt = -Infinity;
  private inflight: Promise<AccountSnapshot> | undefined;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** What was said about this gateway already; each sentence goes to the log once per change. */
  private lastLine = '';

  constructor(private readonly deps: AccountStateDeps) {
    this.snap = { gateway: deps.gateway, status: 'unknown', unit: USD, todayQuota: 0, source: deps.remembered };
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  snapshot(): AccountSnapshot {
    return { ...this.snap };
  }

  /** Today's total from the ledger; shown in the tooltip. */
  setToday(quota: number): void {
    if (quota === this.snap.todayQuota) return;
    this.snap = { ...this.snap, todayQuota: quota };
    this.deps.onChange?.(this.snapshot());
  }

  /** An idle read: skipped when the last one is less than `idleMs` old. */
  refreshIdle(): Promise<AccountSnapshot> {
    if (this.now() - this.lastAttempt < (this.deps.idleMs ?? 60_000)) return Promise.resolve(this.snapshot());
    return this.refreshNow();
  }

  /** After an answer or a clip: one read once things have been quiet for `debounceMs`. */
  afterUse(): void {
    if (this.disposed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.refreshNow();
    }, this.deps.debounceMs ?? 1500);
    this.debounce.unref?.();
  }

  /** Reads now (one read at a time: a call during a read shares it). Never rejects. */
  refreshNow(): Promise<AccountSnapshot> {
    this.inflight ??= this.read().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async read(): Promise<AccountSnapshot> {
    this.lastAttempt = this.now();
    let outcome;
    try {
      const t = await this.deps.transport();
      outcome = await readBalance(t, {
        remembered: this.snap.source,
        custom: this.deps.custom?.(),
        keyCheck: this.deps.keyCheck,
      });
    } catch (e) {
      outcome = { kind: 'unavailable' as const, why: e instanceof Error ? e.message : String(e) };
    }
    if (this.disposed) return this.snapshot();
    const before = this.snap.source;
    // The gateway's own unit when it states one, even when its balance could not be read.
    const unit = ('unit' in outcome ? outcome.unit : undefined) ?? this.snap.unit;
    switch (outcome.kind) {
      case 'reading':
        this.snap = {
          ...this.snap,
          status: 'ok',
          source: outcome.reading.source,
          reading: outcome.reading,
          unit: ('unit' in outcome ? outcome.unit : undefined) ?? outcome.reading.unit,
          readAt: this.now(),
          why: undefined,
        };
        this.say('info', `balance read from ${outcome.reading.source}`);
        break;
      case 'none':
        this.snap = { ...this.snap, status: 'none', source: undefined, reading: undefined, unit, why: undefined };
        this.say(
          'info',
          'this gateway does not report a balance (no new-api, dashboard, OpenRouter, LiteLLM or configured source)',
        );
        break;
      case 'unavailable':
        this.snap = {
          ...this.snap,
          status: 'unavailable',
          source: outcome.source ?? this.snap.source,
          reading: undefined,
          unit,
          why: outcome.why,
        };
        this.say('warn', `balance unavailable${outcome.source ? ` (${outcome.source})` : ''}: ${outcome.why}`);
        break;
    }
    if (this.snap.source !== before) this.deps.onSource?.(this.snap.source);
    this.deps.onChange?.(this.snapshot());
    return this.snapshot();
  }

  private say(level: 'info' | 'warn', line: string): void {
    if (line === this.lastLine) return;
    this.lastLine = line;
    this.deps.log?.(level, `${this.deps.gateway}: ${line}`);
  }

  dispose(): void {
    this.disposed = true;
    if (this.debounce) clearTimeout(this.debounce);
  }
}
