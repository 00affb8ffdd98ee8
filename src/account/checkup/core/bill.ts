/**
 * Probe 5, the bill: what the relay charged for the probes just made, against their tokens × the
 * advertised price (which carries the group ratio): the effective multiplier. The charge comes
 * from new-api's `/api/log/token` rows written since the check-up began, or from the per-answer
 * cost OpenRouter and LiteLLM report. A charge more than 5% off the price is named.
 */
import * as l10n from '@vscode/l10n';
import { errorIn } from '../../balance/core/sources';
import type { Usage } from '../../../api/chat/wire';
import type { ProbeResult } from './types';

/** Within this share of the price, a charge is the price (rounding, cached tokens). */
const TOLERANCE = 0.05;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sane = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 1e15;

function rowsOf(body: unknown): unknown[] | undefined {
  const data = isObj(body) ? body.data : undefined;
  return Array.isArray(data) ? data : isObj(data) && Array.isArray(data.items) ? data.items : undefined;
}

/** The highest row id of a log answer (0 when none): rows above it are newer. */
export function lastLogId(body: unknown): number {
  let max = 0;
  for (const r of rowsOf(body) ?? []) if (isObj(r) && sane(r.id) && r.id > max) max = r.id;
  return max;
}

export type LoggedCharge = { quota: number; rows: number } | { why: string };

/**
 * The quota logged for `model` after row `afterId` and not before `sinceSec`: consume rows count, refunds (type 6) subtract, rows with figures that are not
 * sane numbers are skipped.
 */
export function chargesSince(body: unknown, o: { model: string; afterId: number; sinceSec: number }): LoggedCharge {
  const err = errorIn(body);
  if (err) return { why: err };
  const rows = rowsOf(body);
  if (!rows) return { why: 'no list of rows in data' };
  let quota = 0;
  let n = 0;
  for (const r of rows.slice(0, 5000)) {
    if (!isObj(r) || r.model_name !== o.model || !sane(r.quota)) continue;
    // Rows older than the check-up: by id (a log read before it began), and by time either way.
    if ((sane(r.id) && r.id <= o.afterId) || (sane(r.created_at) && r.created_at < o.sinceSec)) continue;
    quota += r.type === 6 ? -r.quota : r.quota;
    n += 1;
  }
  return { quota, rows: n };
}

export interface BillInput {
  /** The probes' cost at the advertised price, in quota units; undefined without a price. */
  expectedQuota?: number;
  /** What the relay charged: its log, or the sum of the costs it reported per answer. */
  charged?: LoggedCharge & { source?: string };
  /** Video tasks on this relay that failed yet were charged, as the ledger kept them. */
  failedVideo?: FailedVideo;
}

export interface FailedVideo {
  tasks: number;
  quota: number;
  /** The charges in the relay's unit (`$0.40`), when known. */
  amount?: string;
  models: string[];
}

/** The probes' multiplier, then the failed video tasks still charged: either one is a problem. */
export function billVerdict(b: BillInput): Omit<ProbeResult, 'spent'> {
  const r = multiplierVerdict(b);
  const f = b.failedVideo;
  if (!f || !(f.tasks > 0)) return r;
  const line = l10n.t(
    'Failed video tasks still charged: {0} ({1}; {2}), from the usage ledger.',
    f.tasks,
    f.amount ?? l10n.t('{0} quota units', f.quota),
    f.models.slice(0, 5).join(', '),
  );
  return {
    ...r,
    verdict: 'problem',
    summary: r.verdict === 'problem' ? `${r.summary} ${line}` : line,
    evidence: [...r.evidence, ...(r.verdict === 'problem' ? [] : [r.summary])],
    figures: { ...r.figures, failedVideoTasks: f.tasks, failedVideoQuota: f.quota },
  };
}

function multiplierVerdict(b: BillInput): Omit<ProbeResult, 'spent'> {
  const base = { probe: 'bill' as const, evidence: [] as string[], figures: {} as Record<string, number> };
  if (b.expectedQuota === undefined)
    return {
      ...base,
      verdict: 'cannot-tell',
      summary: l10n.t('Cannot tell: the relay advertises no price for this model.'),
    };
  if (!b.charged || 'why' in b.charged)
    return {
      ...base,
      verdict: 'cannot-tell',
      summary: l10n.t(
        'Cannot tell: the relay shows no charges for the probes ({0}).',
        b.charged && 'why' in b.charged ? b.charged.why : l10n.t('no billing log'),
      ),
    };
  if (b.charged.rows === 0)
    return {
      ...base,
      verdict: 'cannot-tell',
      summary: l10n.t('Cannot tell: the relay logged no charge for the probes yet.'),
    };
  const expected = b.expectedQuota;
  const m = expected > 0 ? b.charged.quota / expected : Infinity;
  const figures = { expectedQuota: expected, chargedQuota: b.charged.quota, multiplier: Math.round(m * 100) / 100 };
  const evidence = [
    l10n.t(
      'At the advertised price: {0} quota units; charged: {1} in {2} row(s){3}.',
      expected,
      b.charged.quota,
      b.charged.rows,
      b.charged.source ? ` (${b.charged.source})` : '',
    ),
  ];
  if (m > 1 + TOLERANCE)
    return {
      ...base,
      figures,
      evidence,
      verdict: 'problem',
      summary: l10n.t('Billed {0}× the advertised price.', m.toFixed(2)),
    };
  return {
    ...base,
    figures,
    evidence,
    verdict: 'ok',
    summary:
      m < 1 - TOLERANCE
        ? l10n.t('Billed {0}× the advertised price (less than advertised).', m.toFixed(2))
        : l10n.t('Billed at the advertised price ({0}×).', m.toFixed(2)),
  };
}

/** Prompt and completion tokens of an answer, 0 where it reported none. */
export function tokensOf(u: Usage | undefined): { prompt: number; completion: number } {
  return {
    prompt: sane(u?.prompt_tokens) ? u.prompt_tokens : 0,
    completion: sane(u?.completion_tokens) ? u.completion_tokens : 0,
  };
}
