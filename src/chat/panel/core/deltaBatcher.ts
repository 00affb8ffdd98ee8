/**
 * When streamed text goes to the webviews. A fast stream must not cost one IPC message per
 * token, yet a lone chunk must not wait either: the first delta of a burst is posted on the next
 * turn of the event loop (so the tokens of one network read still go as one message), and after
 * that at most one message leaves per {@link LEADING_GAP_MS}. No more than {@link MAX_IN_FLIGHT}
 * posts wait for their delivery at once: when the page's side is busy, the text that arrives
 * meanwhile goes in the next post instead of queueing one message per 8 ms behind it (at 1,000
 * chunks/s that queue held text back 200-400 ms in the latency bench).
 */

/** Text waiting to be posted for one answer. */
export interface PendingDelta {
  requestId: string;
  content: string;
  reasoning: string;
}

/** Least time between two posts once a burst is under way. */
export const LEADING_GAP_MS = 8;
/** Posts not yet delivered (their `postMessage` not settled) before the next one waits. */
export const MAX_IN_FLIGHT = 2;
/** The longest a due post waits for a delivery before it goes anyway. */
export const MAX_HOLD_MS = 100;

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

export class DeltaBatcher {
  private pending = new Map<string, PendingDelta>();
  private cancel: (() => void) | undefined;
  private lastPostAt = -Infinity;
  private inFlight = 0;
  /** A post is due but waits for one in flight to be delivered. */
  private held = false;

  constructor(
    /**
     * Posts one batch (by message id), in arrival order. What it returns settles when the batch
     * was delivered; it is never awaited before the next delta is taken.
     */
    private readonly post: (batch: Map<string, PendingDelta>) => PromiseLike<unknown> | void,
    private readonly clock: DeltaClock = realClock,
  ) {}

  add(requestId: string, messageId: string, d: { content?: string; reasoning?: string }): void {
    const cur = this.pending.get(messageId) ?? { requestId, content: '', reasoning: '' };
    cur.content += d.content ?? '';
    cur.reasoning += d.reasoning ?? '';
    this.pending.set(messageId, cur);
    // A post already scheduled, or held for a delivery (its hold timer is `cancel` too), takes it.
    if (this.cancel) return;
    this.schedule();
  }

  private schedule(): void {
    const delay = Math.max(0, this.lastPostAt + LEADING_GAP_MS - this.clock.now());
    this.cancel = this.clock.schedule(() => {
      this.cancel = undefined;
      if (this.inFlight >= MAX_IN_FLIGHT) {
        this.held = true;
        // A delivery that never settles (a page gone) must not hold the text for good.
        this.cancel = this.clock.schedule(() => {
          this.cancel = undefined;
          this.flush();
        }, MAX_HOLD_MS);
      } else this.flush();
    }, delay);
  }

  private delivered(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (!this.held) return;
    this.held = false;
    this.cancel?.();
    this.cancel = undefined;
    if (this.pending.size > 0) this.schedule();
  }

  /**
   * Posts what is pending now, in flight or not: before any other message, so the text is never
   * overtaken.
   */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.held = false;
    const batch = this.pending;
    if (batch.size === 0) return;
    this.pending = new Map();
    this.lastPostAt = this.clock.now();
    const sent = this.post(batch);
    if (sent) {
      this.inFlight += 1;
      const done = () => this.delivered();
      sent.then(done, done);
    }
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.held = false;
  }
}
