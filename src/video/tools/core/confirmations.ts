import { createHash } from 'node:crypto';
import type { VideoCreateRequest } from '../../../api/video/videoRules';

/**
 * Which billed video plans the user confirmed. VS Code shows the confirmation that the tool's
 * `prepareInvocation` returns, then calls `invoke`; `invoke` starts a billed task only for a plan
 * that a `prepareInvocation` recorded here and that it has not used yet. A plan reaching `invoke`
 * any other way (a path that skips prepare, an input or setting or image changed after the
 * confirmation) is refused: the user never saw it.
 */

/** How long a confirmation stays usable: the dialog waits for the user, but not for ever. */
export const CONFIRMATION_TTL_MS = 10 * 60_000;
/** Most confirmations kept at once; prepares without an invoke would otherwise pile up. */
const MAX_PENDING = 64;

/** Key properties in a fixed order, at every level, so equal plans give equal text. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/**
 * The identity of exactly what would be sent and billed: the whole request after settings filled
 * the gaps and workspace images became data URLs (so an image changed after the confirmation
 * gives another key).
 */
export function planKey(request: VideoCreateRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(request)))
    .digest('hex');
}

export class ConfirmationLedger {
  /** Plan key -> expiry times of its unused confirmations, oldest first. */
  private readonly pending = new Map<string, number[]>();

  constructor(
    private readonly ttlMs = CONFIRMATION_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that a confirmation of `key` is being shown to the user. */
  record(key: string): void {
    this.prune();
    const list = this.pending.get(key) ?? [];
    list.push(this.now() + this.ttlMs);
    this.pending.delete(key);
    this.pending.set(key, list);
    while (this.size() > MAX_PENDING) this.dropOldest();
  }

  /** True, once per recorded confirmation, when `key` was confirmed and has not expired. */
  consume(key: string): boolean {
    this.prune();
    const list = this.pending.get(key);
    if (!list?.length) return false;
    list.shift();
    if (list.length === 0) this.pending.delete(key);
    return true;
  }

  size(): number {
    let n = 0;
    for (const l of this.pending.values()) n += l.length;
    return n;
  }

  private prune(): void {
    const t = this.now();
    for (const [k, list] of this.pending) {
      const live = list.filter((exp) => exp > t);
      if (live.length) this.pending.set(k, live);
      else this.pending.delete(k);
    }
  }

  private dropOldest(): void {
    const first = this.pending.keys().next();
    if (first.done) return;
    const list = this.pending.get(first.value)!;
    list.shift();
    if (list.length === 0) this.pending.delete(first.value);
  }
}

/** The answer of an invoke whose plan was not confirmed (for the model, which tells the user). */
export const NOT_CONFIRMED_TEXT =
  'The video task was not started: this exact request was not confirmed by the user (no confirmation was shown for it, or the request, a setting or a reference image changed after it). Nothing was sent or billed. Call the tool again so the user is asked.';
