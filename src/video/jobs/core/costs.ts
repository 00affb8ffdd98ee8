/**
 * What each clip was expected to cost and what the gateway charged, kept beside the task records
 * (in the workspace state, under its own key, so a task record's format does not change) and
 * bounded. Figures arrive as text in the gateway's unit from the account feature; this keeps and
 * words them, for the gallery's card and details.
 */
import * as l10n from '@vscode/l10n';
import type { KeyValueState } from './taskStore';
import { clipCostsKey, loadState, saveState } from '../../../contracts/persistedState/video';

export interface ClipCost {
  /** The quote shown before the submit ("about ¥0.80: 4 s, 720p, vendor-image-video"), or why there was none. */
  quoteLine?: string;
  /** The estimate as a figure (`¥0.80`). */
  estimate?: string;
  /** What the gateway charged (`¥0.80`). */
  charged?: string;
  source?: 'log' | 'balance';
  /** Failed, yet charged (new-api#2050). */
  failedCharged?: boolean;
}

export const COSTS_KEY = clipCostsKey.key;
export const MAX_COSTS = 300;

const str = (v: unknown, max = 300): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined;

function clean(v: unknown): ClipCost | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const c: ClipCost = {};
  const quoteLine = str(o.quoteLine);
  const estimate = str(o.estimate, 40);
  const charged = str(o.charged, 40);
  if (quoteLine) c.quoteLine = quoteLine;
  if (estimate) c.estimate = estimate;
  if (charged) c.charged = charged;
  if (o.source === 'log' || o.source === 'balance') c.source = o.source;
  if (o.failedCharged === true) c.failedCharged = true;
  return c;
}

export class ClipCosts {
  constructor(private readonly state: KeyValueState) {}

  private all(): Record<string, ClipCost> {
    const out: Record<string, ClipCost> = {};
    for (const [k, c] of Object.entries(loadState(this.state, clipCostsKey))) {
      const ok = clean(c);
      if (ok) out[k] = ok;
    }
    return out;
  }

  get(key: string): ClipCost | undefined {
    return this.all()[key];
  }

  /** Merges `c` into the task's entry; the oldest entries beyond {@link MAX_COSTS} go. */
  async set(key: string, c: ClipCost): Promise<void> {
    const all = this.all();
    const merged = { ...all[key], ...clean(c) };
    delete all[key];
    all[key] = merged;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_COSTS))) delete all[k];
    await saveState(this.state, clipCostsKey, all);
  }

  async remove(key: string): Promise<void> {
    const all = this.all();
    if (!(key in all)) return;
    delete all[key];
    await saveState(this.state, clipCostsKey, all);
  }
}

/**
 * The card's lines: the estimate and the charge side by side, and a flag for a failed task that
 * was charged. Nothing when nothing is known.
 */
export function costLines(c: ClipCost | undefined): { cost?: string; flag?: string } {
  if (!c) return {};
  const from = c.source === 'log' ? l10n.t("the gateway's log") : l10n.t('the balance change');
  const estimate = c.estimate ?? l10n.t('unknown');
  let cost: string | undefined;
  if (c.charged) cost = l10n.t('Estimate {0} · charged {1} (from {2})', estimate, c.charged, from);
  else if (c.estimate) cost = l10n.t('Estimate {0} · charge not reported yet', c.estimate);
  else if (c.quoteLine) cost = c.quoteLine;
  const flag =
    c.failedCharged && c.charged
      ? l10n.t(
          "This task failed, yet the gateway charged {0} for it. Ask the gateway's operator for a refund (relays are known to bill failed video tasks).",
          c.charged,
        )
      : undefined;
  return { ...(cost ? { cost } : {}), ...(flag ? { flag } : {}) };
}
