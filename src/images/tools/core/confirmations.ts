/**
 * Which billed image plans the user confirmed through VS Code's tool confirmation: `invoke` sends
 * only a plan that a `prepareInvocation` showed and that it has not used yet. The key is the
 * whole request and the inputs' bytes, so a file changed after the confirmation is another plan.
 */
import { createHash } from 'node:crypto';
import type { ImageEditInputs, ImageJobRequest } from '../../jobs/core/imageJob';

const TTL_MS = 10 * 60_000;
const MAX_PENDING = 64;

/** The identity of exactly what would be sent and billed. */
export function imagePlanKey(operation: string, request: ImageJobRequest, inputs?: ImageEditInputs): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([operation, Object.entries(request).sort(([a], [b]) => a.localeCompare(b))]));
  for (const img of [...(inputs?.images ?? []), ...(inputs?.mask ? [inputs.mask] : [])]) {
    h.update('\0');
    h.update(img.bytes);
  }
  return h.digest('hex');
}

export class ImageConfirmations {
  /** Key -> expiry, in the order recorded. */
  private readonly pending: { key: string; until: number }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  record(key: string): void {
    this.prune();
    this.pending.push({ key, until: this.now() + TTL_MS });
    while (this.pending.length > MAX_PENDING) this.pending.shift();
  }

  /** True once per recorded confirmation of `key` that has not expired. */
  consume(key: string): boolean {
    this.prune();
    const i = this.pending.findIndex((p) => p.key === key);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    return true;
  }

  private prune(): void {
    const t = this.now();
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i]!.until <= t) this.pending.splice(i, 1);
  }
}

export const NOT_CONFIRMED_TEXT =
  'The image request was not sent: this exact request was not confirmed by the user (no confirmation was shown for it, or the request or an input file changed after it). Nothing was sent or billed. Call the tool again so the user is asked.';

export const DECLINED_TEXT =
  'The image request was not sent: the user declined it at its price. Nothing was sent or billed. Do not call the tool again unless the user asks.';
