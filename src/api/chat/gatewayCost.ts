/**
 * A cost the gateway itself reports for one answer (issue 39), which wins over the one computed
 * from usage × price: OpenRouter's `usage.cost` (credits, i.e. dollars) in the answer, asked for
 * with `usage: {include: true}`, and a LiteLLM proxy's `x-litellm-response-cost` header (dollars).
 * Each is read only from a gateway detected as that relay: a new-api relay that passes an
 * upstream OpenRouter answer through would otherwise show the upstream's cost, not its own price.
 * The figure travels in the answer's usage as `reported_cost`, so the ledger and the chat see it.
 */
import type { ChatResult } from '../transport/answer';

/** The relays whose per-answer cost we read. */
export type CostDialect = 'openrouter' | 'litellm';

export interface ReportedCost {
  usd: number;
  from: 'usage.cost' | 'x-litellm-response-cost';
}

export const LITELLM_COST_HEADER = 'x-litellm-response-cost';
/** One answer costing more than this is not believed (a hostile or broken figure). */
export const MAX_REPORTED_USD = 10_000;

/**
 * The dialect of a gateway: OpenRouter by its host, else what the account's balance detection
 * found there (`detected`, its remembered source), else none.
 */
export function costDialectOf(baseUrl: string, detected: string | undefined): CostDialect | undefined {
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  } catch {
    // Not a URL: the detected source alone decides.
  }
  return detected === 'openrouter' || detected === 'litellm' ? detected : undefined;
}

/** The request body with OpenRouter's `usage: {include: true}`, for an OpenRouter gateway only. */
export function askCost(body: Record<string, unknown>, dialect: CostDialect | undefined): Record<string, unknown> {
  return dialect === 'openrouter' ? { ...body, usage: { include: true } } : body;
}

function dollars(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_REPORTED_USD ? n : undefined;
}

/** The gateway's own figure for an answer, when its dialect reports one and it is believable. */
export function reportedCost(
  usage: unknown,
  headers: { get(name: string): string | null } | undefined,
  dialect: CostDialect | undefined,
): ReportedCost | undefined {
  if (dialect === 'litellm') {
    const usd = dollars(headers?.get(LITELLM_COST_HEADER));
    return usd === undefined ? undefined : { usd, from: 'x-litellm-response-cost' };
  }
  if (dialect === 'openrouter' && typeof usage === 'object' && usage !== null) {
    const raw = (usage as { cost?: unknown }).cost;
    // A number in JSON: a string there is not OpenRouter's shape.
    const usd = typeof raw === 'number' ? dollars(raw) : undefined;
    return usd === undefined ? undefined : { usd, from: 'usage.cost' };
  }
  return undefined;
}

/** Puts the reported cost on the result's usage (`reported_cost`); a result without usage gets one of zeros. */
export function withReportedCost(r: ChatResult, cost: ReportedCost | undefined): ChatResult {
  if (!cost) return r;
  const usage = r.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  r.usage = { ...usage, reported_cost: cost };
  return r;
}

/** The reported cost a usage carries (put there by {@link withReportedCost}), checked again. */
export function reportedCostIn(usage: unknown): ReportedCost | undefined {
  const c =
    typeof usage === 'object' && usage !== null ? (usage as { reported_cost?: unknown }).reported_cost : undefined;
  if (typeof c !== 'object' || c === null) return undefined;
  const { usd, from } = c as { usd?: unknown; from?: unknown };
  const n = dollars(usd);
  if (n === undefined || (from !== 'usage.cost' && from !== 'x-litellm-response-cost')) return undefined;
  return { usd: n, from };
}

/** What one request does about the gateway's cost: the body rule before, the result's figure after. */
export interface CostPlan {
  dialect: CostDialect | undefined;
  ask(body: Record<string, unknown>): Record<string, unknown>;
  settle(r: ChatResult, headers: { get(name: string): string | null }): ChatResult;
}

/** The plan for a request to `baseUrl`, whose balance was found at `detected` (the account's remembered source). */
export function costPlan(baseUrl: string, detected: string | undefined): CostPlan {
  const dialect = costDialectOf(baseUrl, detected);
  return {
    dialect,
    ask: (body) => askCost(body, dialect),
    settle: (r, headers) => (dialect ? withReportedCost(r, reportedCost(r.usage, headers, dialect)) : r),
  };
}
