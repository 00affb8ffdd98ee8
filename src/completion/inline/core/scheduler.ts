/**
 * When a completion request is sent, and what becomes of it: the cache first, then a debounce;
 * a newer keystroke aborts the older request at the HTTP level (its AbortController reaches the
 * client's fetch, so the connection is closed, not just ignored); repeated failures back off; a
 * 401/403/404/429 becomes an error state reported once, not on every keystroke.
 */
import { describeError } from '../../../contracts/errorWords';
import { isGatewayFailure } from '../../../contracts/gatewayError';
import { SuggestionCache } from './cache';

/** One question: where the cursor is, and how to build the request if one is sent. */
export interface Ask<C> {
  doc: string;
  prefix: string;
  suffix: string;
  /** Builds the request's context; called only when a request is sent. */
  context: () => C | Promise<C>;
  /** The editor's cancellation (VS Code cancels on the next keystroke). */
  cancelled?: AbortSignal;
}

export type Outcome =
  { text: string; from: 'cache' | 'gateway' } | { none: 'superseded' | 'cancelled' | 'backoff' | 'empty' | 'failed' };

/** The error shown in the status bar; one per distinct failure, until a success or a reset. */
export interface ErrorState {
  status?: number;
  /** The usual words' title (`describeError`), e.g. "The API key was refused (401)". */
  title: string;
  detail: string;
}

export interface SchedulerDeps<C> {
  /** Sends the request and returns the cleaned suggestion (undefined: nothing to suggest). */
  fetch(ctx: C, signal: AbortSignal): Promise<string | undefined>;
  debounceMs(): number;
  now?(): number;
  /** Hears the error state when it changes (undefined: cleared). */
  onError?(state: ErrorState | undefined): void;
  /** Hears failures for the log. */
  onFailure?(e: unknown): void;
  /** false: no cache (the benchmark's baseline). */
  cache?: boolean;
}

export interface SchedulerStats {
  asked: number;
  fromCache: number;
  requests: number;
  /** Requests aborted while in flight (at the HTTP level). */
  aborted: number;
  suggestions: number;
  failures: number;
}

/** Failures in a row before completion pauses. */
const FAILURES_BEFORE_BACKOFF = 3;
/** The pause doubles from this, up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 5 * 60_000;
/** Statuses that do not mend by themselves: shown, and completion pauses at once. */
const STOPPING = new Set([401, 403, 404]);

export class CompletionScheduler<C> {
  readonly cache = new SuggestionCache();
  readonly stats: SchedulerStats = { asked: 0, fromCache: 0, requests: 0, aborted: 0, suggestions: 0, failures: 0 };
  private current: { ctrl: AbortController; inFlight: boolean } | undefined;
  private failuresInRow = 0;
  private pausedUntil = 0;
  private error: ErrorState | undefined;

  constructor(private readonly deps: SchedulerDeps<C>) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The error state now (undefined: none). */
  get errorState(): ErrorState | undefined {
    return this.error;
  }

  /** Until when completion pauses after failures (0: it does not). */
  get backoffUntil(): number {
    return this.pausedUntil > this.now() ? this.pausedUntil : 0;
  }

  /** Forgets failures (the key, the address or the model changed: the next try may work). */
  reset(): void {
    this.failuresInRow = 0;
    this.pausedUntil = 0;
    this.cache.clear();
    this.setError(undefined);
  }

  /** Aborts what is pending (a newer keystroke, or the editor moved on). */
  abortPending(): void {
    const c = this.current;
    if (!c) return;
    if (c.inFlight) this.stats.aborted++;
    c.inFlight = false;
    c.ctrl.abort();
    this.current = undefined;
  }

  async suggest(ask: Ask<C>): Promise<Outcome> {
    this.stats.asked++;
    const cached = this.deps.cache === false ? undefined : this.cache.get(ask.doc, ask.prefix, ask.suffix);
    if (cached !== undefined) {
      // The typed characters matched: an older request for a place now behind us is useless.
      this.abortPending();
      this.stats.fromCache++;
      return { text: cached, from: 'cache' };
    }
    this.abortPending();
    if (this.pausedUntil > this.now()) return { none: 'backoff' };
    const mine = { ctrl: new AbortController(), inFlight: false };
    this.current = mine;
    const onCancel = (): void => {
      if (this.current === mine) this.abortPending();
      else mine.ctrl.abort();
    };
    if (ask.cancelled?.aborted) return this.finish(mine, { none: 'cancelled' });
    ask.cancelled?.addEventListener('abort', onCancel, { once: true });
    try {
      await delay(this.deps.debounceMs(), mine.ctrl.signal);
      if (mine.ctrl.signal.aborted) return { none: 'superseded' };
      const ctx = await ask.context();
      if (mine.ctrl.signal.aborted) return { none: 'superseded' };
      mine.inFlight = true;
      this.stats.requests++;
      let text: string | undefined;
      try {
        text = await this.deps.fetch(ctx, mine.ctrl.signal);
      } catch (e) {
        if (mine.ctrl.signal.aborted) return { none: 'superseded' };
        this.failed(e);
        return { none: 'failed' };
      } finally {
        mine.inFlight = false;
      }
      if (mine.ctrl.signal.aborted) return { none: 'superseded' };
      this.failuresInRow = 0;
      this.setError(undefined);
      if (text === undefined || text === '') return { none: 'empty' };
      this.cache.put(ask.doc, ask.prefix, ask.suffix, text);
      this.stats.suggestions++;
      return { text, from: 'gateway' };
    } finally {
      ask.cancelled?.removeEventListener('abort', onCancel);
      if (this.current === mine) this.current = undefined;
    }
  }

  private finish(mine: { ctrl: AbortController }, o: Outcome): Outcome {
    if (this.current === mine) this.current = undefined;
    return o;
  }

  private failed(e: unknown): void {
    this.stats.failures++;
    this.failuresInRow++;
    this.deps.onFailure?.(e);
    const status = isGatewayFailure(e) ? e.status : undefined;
    if (status !== undefined && (STOPPING.has(status) || status === 429)) {
      const d = describeError(e);
      this.setError({ status, title: d.title, detail: d.detail });
    }
    if (status !== undefined && STOPPING.has(status)) {
      // The same key or model will be refused again: wait long, until a reset says something changed.
      this.pausedUntil = this.now() + MAX_BACKOFF_MS;
      return;
    }
    if (status === 429 || this.failuresInRow >= FAILURES_BEFORE_BACKOFF) {
      const n = Math.max(0, this.failuresInRow - FAILURES_BEFORE_BACKOFF);
      this.pausedUntil = this.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** n);
    }
  }

  private setError(state: ErrorState | undefined): void {
    const same =
      state === this.error || (state !== undefined && this.error !== undefined && state.status === this.error.status);
    this.error = state;
    if (!same) this.deps.onError?.(state);
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
