/**
 * The usage ledger: per day, gateway and model, the requests, tokens, clips and what they cost
 * (computed, and charged where the balance showed it). Kept locally and bounded: a year of days,
 * at most {@link MAX_ROWS} rows. It holds figures and model names only, never a key or any text
 * of a conversation.
 */
import { toMinor, type MoneyUnit } from '../../balance/core/money';
import type { Cost, UsageCounts } from './cost';
import { loadState, saveState, usageLedgerKey } from '../../../contracts/persistedState/account';

export interface LedgerRow {
  /** Local date, `YYYY-MM-DD`. */
  day: string;
  /** The gateway's origin (`https://host`): no path, no key. */
  gateway: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  clips: number;
  videoSeconds: number;
  /** Computed cost (usage × price) in quota units. */
  costQuota: number;
  /** Requests and clips whose cost could not be computed (no price or no usage). */
  unpriced: number;
  /**
   * Answers the gateway reported no usage for, priced from the tokens counted here: estimates,
   * kept apart from `costQuota` (absent in rows stored before they were counted).
   */
  estimatedQuota?: number;
  estimates?: number;
  /** What the balance showed was charged, in quota units. */
  chargedQuota: number;
  /**
   * Video tasks that failed yet were charged (new-api#2050), and those charges in quota units
   * (absent in rows stored before they were counted): the check-up's bill names them.
   */
  failedCharged?: number;
  failedChargedQuota?: number;
  /** Images made (`/v1/images/*` and the chat form), absent in rows stored before images were counted. */
  images?: number;
  unit: MoneyUnit;
}

/** Where the ledger is kept (VS Code's global state; a map in tests). */
export interface LedgerStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const LEDGER_KEY = usageLedgerKey.key;
export const MAX_DAYS = 366;
export const MAX_ROWS = 20_000;

/** `YYYY-MM-DD` of a time, in local time. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A model name as the ledger keeps it: printable, at most 128 characters. */
function cleanModel(m: string): string {
  const s = m.replace(/[^\P{C}]/gu, '').trim();
  return (s || '(unknown)').slice(0, 128);
}

/** A gateway base URL as the ledger keys it: its origin, no path. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(unknown)';
  }
}

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

export class UsageLedger {
  private rowsByKey: Map<string, LedgerRow>;
  /** Estimates that came before their answer was counted, by row: that answer is not unpriced. */
  private readonly early = new Map<string, number>();

  constructor(
    private readonly storage: LedgerStorage,
    private readonly now: () => number = Date.now,
  ) {
    this.rowsByKey = new Map();
    for (const r of loadState(storage, usageLedgerKey)) if (isRow(r)) this.rowsByKey.set(keyOf(r), r);
  }

  private row(gateway: string, model: string, unit: MoneyUnit): LedgerRow {
    const day = dayOf(this.now());
    const g = originOf(gateway);
    const m = cleanModel(model);
    const key = `${day}\n${g}\n${m}`;
    let r = this.rowsByKey.get(key);
    if (!r) {
      r = {
        day,
        gateway: g,
        model: m,
        requests: 0,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        clips: 0,
        videoSeconds: 0,
        costQuota: 0,
        unpriced: 0,
        chargedQuota: 0,
        unit,
      };
      this.rowsByKey.set(key, r);
    }
    r.unit = unit;
    return r;
  }

  recordAnswer(e: { gateway: string; model: string; usage?: UsageCounts; cost: Cost; unit: MoneyUnit }): Promise<void> {
    const r = this.row(e.gateway, e.model, e.unit);
    r.requests += 1;
    r.promptTokens += n(e.usage?.prompt_tokens);
    r.completionTokens += n(e.usage?.completion_tokens);
    r.cachedTokens += n(e.usage?.prompt_tokens_details?.cached_tokens);
    if (e.cost.quota !== undefined) this.addCost(r, e.cost);
    else {
      const early = this.early.get(keyOf(r)) ?? 0;
      if (early > 0) this.early.set(keyOf(r), early - 1);
      else r.unpriced += 1;
    }
    return this.save();
  }

  private addCost(r: LedgerRow, c: Cost): void {
    if (c.quota === undefined) return;
    if (!c.estimate) r.costQuota += c.quota;
    else {
      r.estimatedQuota = (r.estimatedQuota ?? 0) + n(c.quota);
      r.estimates = (r.estimates ?? 0) + 1;
    }
  }

  /**
   * An answer counted without a figure (the gateway reported no usage) that the chat then priced
   * from the tokens it counted: its estimate is counted, marked as one, and the answer is no
   * longer among those without a price. The estimate may come before the answer is counted.
   */
  recordEstimate(e: { gateway: string; model: string; quota: number; unit: MoneyUnit }): Promise<void> {
    const r = this.row(e.gateway, e.model, e.unit);
    this.addCost(r, { quota: e.quota, estimate: true });
    if (r.unpriced > 0) r.unpriced -= 1;
    else this.early.set(keyOf(r), (this.early.get(keyOf(r)) ?? 0) + 1);
    return this.save();
  }

  recordClip(e: { gateway: string; model: string; seconds: number; cost: Cost; unit: MoneyUnit }): Promise<void> {
    const r = this.row(e.gateway, e.model, e.unit);
    r.clips += 1;
    r.videoSeconds += n(e.seconds);
    if (e.cost.quota === undefined) r.unpriced += 1;
    else this.addCost(r, e.cost);
    return this.save();
  }

  /** One image request's answer: its images, priced per image when the model has a price. */
  recordImages(e: { gateway: string; model: string; images: number; cost: Cost; unit: MoneyUnit }): Promise<void> {
    const r = this.row(e.gateway, e.model, e.unit);
    r.images = (r.images ?? 0) + n(e.images);
    if (e.cost.quota === undefined) r.unpriced += 1;
    else this.addCost(r, e.cost);
    return this.save();
  }

  recordCharge(e: { gateway: string; model: string; quota: number; unit: MoneyUnit }): Promise<void> {
    this.row(e.gateway, e.model, e.unit).chargedQuota += n(e.quota);
    return this.save();
  }

  /** A video task that failed and was charged all the same (the charge itself is counted apart). */
  recordFailedCharge(e: { gateway: string; model: string; quota: number; unit: MoneyUnit }): Promise<void> {
    const r = this.row(e.gateway, e.model, e.unit);
    r.failedCharged = (r.failedCharged ?? 0) + 1;
    r.failedChargedQuota = (r.failedChargedQuota ?? 0) + n(e.quota);
    return this.save();
  }

  /** The failed-yet-charged video tasks the ledger kept for a gateway (a year of days), per model. */
  failedCharges(gateway: string): { tasks: number; quota: number; models: string[] } {
    const g = originOf(gateway);
    const out = { tasks: 0, quota: 0, models: [] as string[] };
    for (const r of this.rowsByKey.values()) {
      if (r.gateway !== g || !r.failedCharged) continue;
      out.tasks += r.failedCharged;
      out.quota += r.failedChargedQuota ?? 0;
      if (!out.models.includes(r.model)) out.models.push(r.model);
    }
    return out;
  }

  /** Today's cost for a gateway, in quota units: computed, and estimated where usage was missing. */
  todayQuota(gateway: string): number {
    const day = dayOf(this.now());
    const g = originOf(gateway);
    let sum = 0;
    for (const r of this.rowsByKey.values())
      if (r.day === day && r.gateway === g) sum += r.costQuota + (r.estimatedQuota ?? 0);
    return sum;
  }

  /** Every row, newest day first. */
  rows(): LedgerRow[] {
    return [...this.rowsByKey.values()].sort((a, b) => b.day.localeCompare(a.day) || a.model.localeCompare(b.model));
  }

  private save(): Promise<void> {
    this.prune();
    return Promise.resolve(saveState(this.storage, usageLedgerKey, [...this.rowsByKey.values()]));
  }

  /** Drops days older than a year before the newest, then the oldest rows beyond {@link MAX_ROWS}. */
  private prune(): void {
    const days = [...new Set([...this.rowsByKey.values()].map((r) => r.day))].sort().reverse();
    const keep = new Set(days.slice(0, MAX_DAYS));
    const newest = days[0];
    const cutoff = newest ? dayOf(Date.parse(`${newest}T12:00:00`) - (MAX_DAYS - 1) * 86_400_000) : '';
    for (const [k, r] of this.rowsByKey) if (!keep.has(r.day) || r.day < cutoff) this.rowsByKey.delete(k);
    if (this.rowsByKey.size > MAX_ROWS) {
      const oldest = this.rows().reverse();
      for (const r of oldest.slice(0, this.rowsByKey.size - MAX_ROWS)) this.rowsByKey.delete(keyOf(r));
    }
  }

  /** The ledger as CSV (RFC 4180), costs in each row's unit with four decimals. */
  toCsv(): string {
    const head = [
      'day',
      'gateway',
      'model',
      'requests',
      'prompt_tokens',
      'completion_tokens',
      'cached_tokens',
      'clips',
      'video_seconds',
      'cost',
      'charged',
      'unit',
      'unpriced',
      'estimated',
      'estimates',
      'images',
    ];
    const lines = [head.join(',')];
    for (const r of this.rows()) {
      const money = (q: number) => (r.unit.kind === 'TOKENS' ? String(q) : decimal(q, r.unit));
      lines.push(
        [
          r.day,
          r.gateway,
          r.model,
          r.requests,
          r.promptTokens,
          r.completionTokens,
          r.cachedTokens,
          r.clips,
          r.videoSeconds,
          money(r.costQuota),
          money(r.chargedQuota),
          r.unit.kind === 'CUSTOM' ? r.unit.symbol : r.unit.kind,
          r.unpriced,
          money(r.estimatedQuota ?? 0),
          r.estimates ?? 0,
          r.images ?? 0,
        ]
          .map((v) => csvCell(String(v)))
          .join(','),
      );
    }
    return lines.join('\r\n') + '\r\n';
  }
}

function decimal(q: number, unit: MoneyUnit): string {
  const m = toMinor(q, unit, 4);
  const neg = m < 0n;
  const a = neg ? -m : m;
  return `${neg ? '-' : ''}${a / 10000n}.${(a % 10000n).toString().padStart(4, '0')}`;
}

/** A CSV cell, quoted when needed; a leading `= + - @` is defused so a spreadsheet never runs it. */
export function csvCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) && !/^-?\d+(\.\d+)?$/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function keyOf(r: LedgerRow): string {
  return `${r.day}\n${r.gateway}\n${r.model}`;
}

function isRow(v: unknown): v is LedgerRow {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.day === 'string' &&
    /^\d{4}-\d\d-\d\d$/.test(r.day) &&
    typeof r.gateway === 'string' &&
    typeof r.model === 'string' &&
    [
      'requests',
      'promptTokens',
      'completionTokens',
      'cachedTokens',
      'clips',
      'videoSeconds',
      'costQuota',
      'unpriced',
      'chargedQuota',
    ].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k])) &&
    ['estimatedQuota', 'estimates', 'failedCharged', 'failedChargedQuota', 'images'].every(
      (k) => r[k] === undefined || (typeof r[k] === 'number' && Number.isFinite(r[k])),
    ) &&
    isUnit(r.unit)
  );
}

function isUnit(v: unknown): v is MoneyUnit {
  if (typeof v !== 'object' || v === null) return false;
  const u = v as Record<string, unknown>;
  const whole = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= 1e12;
  return (
    ['USD', 'CNY', 'TOKENS', 'CUSTOM'].includes(u.kind as string) &&
    whole(u.quotaPerUnit) &&
    whole(u.rateMicro) &&
    typeof u.symbol === 'string'
  );
}
