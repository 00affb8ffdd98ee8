/**
 * The host's delta batching measured in-process, the shipped policy against the old one, for
 * bench/webview-latency.bench.ts. The old policy (a 16 ms timer started by a burst's first delta,
 * never waiting for delivery) lives only here: the product ships one policy and no switch.
 */
import { DeltaBatcher, type PendingDelta } from '../../src/chat/panel/core/deltaBatcher';

/** What both policies offer the measurement. */
interface Batcher {
  add(requestId: string, messageId: string, d: { content?: string }): void;
  flush(): void;
  dispose(): void;
}

type Post = (batch: Map<string, PendingDelta>) => PromiseLike<unknown> | void;

/** The policy before issue 25: every burst waits for a 16 ms timer. */
export class TrailingDeltaBatcher implements Batcher {
  private pending = new Map<string, PendingDelta>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly post: Post) {}

  add(requestId: string, messageId: string, d: { content?: string }): void {
    const cur = this.pending.get(messageId) ?? { requestId, content: '', reasoning: '' };
    cur.content += d.content ?? '';
    this.pending.set(messageId, cur);
    this.timer ??= setTimeout(() => this.flush(), 16);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    void this.post(batch);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

export type DeltaPolicy = 'shipped' | 'trailing16';

/**
 * Feeds `chunks` deltas at `perSecond` into a batcher of `policy` on the real clock, each post
 * delivered `deliverMs` later (the IPC to the page), and returns the delay each delta waited
 * between its arrival and the post that carried it (ms).
 */
export async function hostDelays(
  policy: DeltaPolicy,
  perSecond: number,
  chunks: number,
  deliverMs = 2,
): Promise<number[]> {
  const arrivals: number[] = [];
  const delays: number[] = [];
  const post: Post = (batch) => {
    const at = performance.now();
    for (const d of batch.values())
      for (const id of d.content.split(' ').filter(Boolean)) delays.push(at - arrivals[Number(id)]!);
    return new Promise((r) => setTimeout(r, deliverMs));
  };
  const b: Batcher = policy === 'shipped' ? new DeltaBatcher(post) : new TrailingDeltaBatcher(post);
  const start = performance.now();
  for (let i = 0; i < chunks; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    arrivals[i] = performance.now();
    b.add('r1', 'a1', { content: `${i} ` });
  }
  await new Promise((r) => setTimeout(r, 50));
  b.flush();
  b.dispose();
  return delays;
}
