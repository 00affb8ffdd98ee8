/**
 * When streamed text goes to the webviews. A fast stream must not cost one IPC message per
 * token, yet a lone chunk must not wait either: the first delta of a burst is posted on the next
 * turn of the event loop (so the tokens of one network read still go as one message), and after
 * that at most one message leaves per {@link LEADING_GAP_MS}.
 */

/** Text waiting to be posted for one answer. */
export interface PendingDelta {
  requestId: string;
  content: string;
  reasoning: string;
  /** When each delta of this batch arrived (`clock.now()`), kept only while a probe listens. */
  arrivals?: number[];
}

/**
 * `leading`: the policy above. `trailing16`: the old one (a 16 ms timer started by a burst's
 * first delta), kept so the latency bench can compare both in one run.
 */
export type DeltaPolicy = 'leading' | 'trailing16';

/** Least time between two posts once a burst is under way. */
export const LEADING_GAP_MS = 8;
const TRAILING_MS = 16;

/** Time and timers, faked in tests. `delay` 0 means the next turn of the event loop. */
export interface DeltaClock {
  now(): number;
  schedule(cb: () => void, delay: number): () => void;
}

export const realClock: DeltaClock = {
  now: () => performance.now(),
  schedule: (cb, delay) => {
    if (delay <= 0) {
      const h = setImmediate(cb);
      return () => clearImmediate(h);
    }
    const h = setTimeout(cb, delay);
    return () => clearTimeout(h);
  },
};

/**
 * Test-only switch, read from `globalThis[Symbol.for('gatewayStudio.deltaBench')]`: the latency
 * bench (bench/support/seedConversation.ts, in the extension host) picks the policy and records
 * the delay the host adds. Nothing in the extension sets it.
 */
export interface DeltaBenchHook {
  policy?: DeltaPolicy;
  /** Called per post with the arrival time of every delta in it and the post time. */
  onPost?: (arrivals: readonly number[], postedAt: number) => void;
}
const HOOK_KEY = Symbol.for('gatewayStudio.deltaBench');
export function benchHook(): DeltaBenchHook | undefined {
  return (globalThis as Record<symbol, DeltaBenchHook | undefined>)[HOOK_KEY];
}

export class DeltaBatcher {
  private pending = new Map<string, PendingDelta>();
  private cancel: (() => void) | undefined;
  private lastPostAt = -Infinity;

  constructor(
    /** Posts one batch (by message id), in arrival order; never awaited. */
    private readonly post: (batch: Map<string, PendingDelta>) => void,
    private readonly clock: DeltaClock = realClock,
    private readonly hook: () => DeltaBenchHook | undefined = benchHook,
  ) {}

  add(requestId: string, messageId: string, d: { content?: string; reasoning?: string }): void {
    const probe = this.hook();
    const cur = this.pending.get(messageId) ?? { requestId, content: '', reasoning: '' };
    cur.content += d.content ?? '';
    cur.reasoning += d.reasoning ?? '';
    if (probe?.onPost) (cur.arrivals ??= []).push(this.clock.now());
    this.pending.set(messageId, cur);
    if (this.cancel) return;
    const delay =
      (probe?.policy ?? 'leading') === 'trailing16'
        ? TRAILING_MS
        : Math.max(0, this.lastPostAt + LEADING_GAP_MS - this.clock.now());
    this.cancel = this.clock.schedule(() => {
      this.cancel = undefined;
      this.flush();
    }, delay);
  }

  /** Posts what is pending now: before any other message, so the text is never overtaken. */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    this.lastPostAt = this.clock.now();
    this.post(batch);
    const onPost = this.hook()?.onPost;
    if (onPost) for (const d of batch.values()) onPost(d.arrivals ?? [], this.lastPostAt);
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = undefined;
  }
}
