/**
 * The account endpoints real relays add beside the spec, in new-api's shapes (QuantumNous/new-api
 * controller/misc.go GetStatus, token.go GetTokenUsage, pricing.go GetPricing, log.go
 * GetLogByKey, billing.go GetSubscription/GetUsage), with knobs for every quirk the client must
 * survive. The gateway deducts from one balance for every chat call and every clip, by its own
 * prices below, so a test can check that the figure on screen moves by exactly the cost.
 */
import type { ServerResponse } from 'node:http';
import { checkupPrice, CHECKUP_PRICES } from './checkup';
import { sendJson, sleep } from './http';

export type DisplayType = 'USD' | 'CNY' | 'TOKENS' | 'CUSTOM';
export type AccountEndpoint =
  | 'status'
  | 'usage-token'
  | 'pricing'
  | 'log-token'
  | 'subscription'
  | 'usage'
  | 'openrouter-key'
  | 'openrouter-credits'
  | 'litellm-key-info';
/**
 * Which relay's billing this instance speaks (issue 39): new-api's (and its dashboard pair),
 * OpenRouter's (`/api/v1/key`, `/api/v1/credits`, `usage.cost` when `usage: {include: true}` is
 * asked) or a LiteLLM proxy's (`/key/info`, the `x-litellm-response-cost` header). Only that
 * relay's routes answer; the others are 404, as on the real products.
 */
export type BillingDialect = 'new-api' | 'openrouter' | 'litellm';
/** What a chat answer carries about its own cost, in the instance's dialect. */
export interface CostReport {
  /** Dollars, put in the answer's `usage.cost` (OpenRouter). */
  usageCost?: number;
  /** Response headers (LiteLLM's `x-litellm-response-cost`). */
  headers?: Record<string, string>;
}
/** How one endpoint answers: normally, 404, HTTP 200 with an error body, or a canned answer. */
export type EndpointMode =
  'ok' | 'missing' | 'error200' | { status?: number; body: unknown; contentType?: string; location?: string };

/** What `setAccount` and `POST /__control/account` take; every field optional. */
export interface AccountKnobs {
  displayType?: DisplayType;
  quotaPerUnit?: number;
  usdExchangeRate?: number;
  customSymbol?: string;
  customRate?: number;
  /** The ratio of the keys' group (`default`). */
  groupRatio?: number;
  /** The key's remaining quota (quota units); resets what was used. */
  balance?: number;
  unlimited?: boolean;
  /** The key's expiry moved to an hour ago. */
  expired?: boolean;
  /**
   * A failed (cancelled, expired) clip's quota is given back, with a refund row (type 6) in the
   * log, as newer new-api does. Off by default: relays that bill at submission and keep the
   * charge of a failed task (new-api#2050).
   */
  refundFailedClips?: boolean;
  /** Clips get no log row of their own (a relay whose log does not name tasks). */
  clipLogRows?: boolean;
  topUpLink?: string;
  /**
   * The video host answers the account endpoints too (the same account), as a `videoBaseUrl`
   * that is a gateway with an account of its own. Off by default: a video host without them.
   */
  onVideoHost?: boolean;
  /** Every account endpoint waits this long before answering. */
  slowMs?: number;
  /** The relay whose billing routes and cost reports this instance serves (default new-api). */
  billing?: BillingDialect;
  /** OpenRouter: the key may read `/credits` (a management key); otherwise 403 there. */
  managementKey?: boolean;
  /** OpenRouter and LiteLLM: the key routes name another key (a relay answering another account's figures). */
  foreignKey?: boolean;
  endpoints?: Partial<Record<AccountEndpoint, EndpointMode>>;
}

/** The gateway's prices, new-api style: ratios for tokens, `model_price` (USD) per call or per second of video. */
export const ACCOUNT_PRICES: Readonly<
  Record<
    string,
    { quota_type: 0 | 1; model_ratio: number; completion_ratio: number; model_price: number; cache_ratio?: number }
  >
> = {
  'gw-chat': { quota_type: 0, model_ratio: 1.5, completion_ratio: 4, model_price: 0 },
  'gw-latest': { quota_type: 0, model_ratio: 1.5, completion_ratio: 4, model_price: 0 },
  // A tenth of gw-chat's price: the subagents' bench serves it with `models: { 'gw-mini': 'gw-chat' }`.
  'gw-mini': { quota_type: 0, model_ratio: 0.15, completion_ratio: 4, model_price: 0 },
  'gw-vision': { quota_type: 0, model_ratio: 2.5, completion_ratio: 3, model_price: 0 },
  'gw-reasoner': { quota_type: 0, model_ratio: 2, completion_ratio: 4, model_price: 0, cache_ratio: 0.1 },
  'vendor-image-video': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.025 },
  'vendor-video-1.5': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.05 },
  // Issue 40: per image (per second for the family video models), charged like a clip.
  'gpt-image-1': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.04 },
  'doubao-seedream-4-0': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.03 },
  'flux-kontext-pro': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.04 },
  'gemini-2.5-flash-image': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.039 },
  'wan2.5-i2v-preview': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.05 },
  'kling-v2-1-master': { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.07 },
};

/** $25 at new-api's default 500000 quota units per dollar. */
export const DEFAULT_BALANCE = 12_500_000;
const UNLIMITED_DASHBOARD = 100000000;

export interface LogRow {
  id: number;
  created_at: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** 2: consume; 6: refund. */
  type: 2 | 6;
  content: string;
  /** new-api keeps a JSON string here; a clip's row names its task (`task_id`). */
  other: string;
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

export class GatewayAccount {
  knobs: Required<Omit<AccountKnobs, 'balance' | 'endpoints'>> & { endpoints: AccountKnobs['endpoints'] };
  remaining = DEFAULT_BALANCE;
  used = 0;
  private logs: LogRow[] = [];
  private readonly createdAt = Math.floor(Date.now() / 1000);

  /** `billing`: the instance's dialect, kept across `reset()` (a second instance stands for another relay). */
  constructor(private readonly startBilling: BillingDialect = 'new-api') {
    this.knobs = this.defaults();
  }

  private defaults(): GatewayAccount['knobs'] {
    return {
      displayType: 'USD',
      quotaPerUnit: 500_000,
      usdExchangeRate: 7.3,
      customSymbol: '¤',
      customRate: 1,
      groupRatio: 1,
      unlimited: false,
      expired: false,
      refundFailedClips: false,
      clipLogRows: true,
      topUpLink: 'https://gateway.example/console/topup',
      onVideoHost: false,
      slowMs: 0,
      billing: this.startBilling,
      managementKey: false,
      foreignKey: false,
      endpoints: {},
    };
  }

  set(k: AccountKnobs): void {
    const { balance, endpoints, ...rest } = k;
    for (const [name, v] of Object.entries(rest))
      if (v !== undefined) (this.knobs as Record<string, unknown>)[name] = v;
    if (endpoints) this.knobs.endpoints = { ...this.knobs.endpoints, ...endpoints };
    if (balance !== undefined) {
      this.remaining = balance;
      this.used = 0;
    }
  }

  reset(): void {
    this.knobs = this.defaults();
    this.remaining = DEFAULT_BALANCE;
    this.used = 0;
    this.logs = [];
  }

  private charge(model: string, quota: number, usage: Usage, task?: { id: string; seconds: number }): number {
    if (!this.knobs.unlimited) this.remaining -= quota;
    this.used += quota;
    if (task && !this.knobs.clipLogRows) return quota;
    this.logs.push({
      id: this.logs.length + 1,
      created_at: Math.floor(Date.now() / 1000),
      model_name: model,
      quota,
      prompt_tokens: usage.prompt_tokens ?? 0,
      completion_tokens: usage.completion_tokens ?? 0,
      type: 2,
      content: task ? `video task ${task.id}, ${task.seconds} s` : '',
      other: JSON.stringify(task ? { task_id: task.id, seconds: task.seconds } : {}),
    });
    if (this.logs.length > 1000) this.logs.splice(0, this.logs.length - 1000);
    return quota;
  }

  /** What a chat answer costs in quota units: tokens × ratios × the group ratio, rounded once. */
  chatQuota(model: string, usage: Usage): number {
    const p = ACCOUNT_PRICES[model] ?? checkupPrice(model) ?? { model_ratio: 1, completion_ratio: 1, cache_ratio: 1 };
    const prompt = usage.prompt_tokens ?? 0;
    const cached = Math.min(prompt, usage.prompt_tokens_details?.cached_tokens ?? 0);
    const tokens =
      prompt - cached + cached * (p.cache_ratio ?? 1) + (usage.completion_tokens ?? 0) * p.completion_ratio;
    return Math.round(tokens * p.model_ratio * this.knobs.groupRatio * (checkupPrice(model)?.factor ?? 1));
  }

  chargeChat(model: string, usage: Usage): number {
    return this.charge(model, this.chatQuota(model, usage), usage);
  }

  /** A clip: `model_price` per second × seconds × the group ratio, in quota units. */
  clipQuota(model: string, seconds: number): number {
    const price = ACCOUNT_PRICES[model]?.model_price ?? 0;
    return Math.round(price * this.knobs.groupRatio * this.knobs.quotaPerUnit * seconds);
  }

  chargeClip(model: string, seconds: number, taskId = ''): number {
    return this.charge(model, this.clipQuota(model, seconds), {}, { id: taskId, seconds });
  }

  /** A clip ended in failure: refunded when `refundFailedClips` is on (with a type 6 row), else kept. */
  clipFailed(model: string, seconds: number, taskId: string): void {
    if (!this.knobs.refundFailedClips) return;
    const quota = this.clipQuota(model, seconds);
    if (!this.knobs.unlimited) this.remaining += quota;
    this.used -= quota;
    if (!this.knobs.clipLogRows) return;
    this.logs.push({
      id: this.logs.length + 1,
      created_at: Math.floor(Date.now() / 1000),
      model_name: model,
      quota,
      prompt_tokens: 0,
      completion_tokens: 0,
      type: 6,
      content: `refund of failed video task ${taskId}`,
      other: JSON.stringify({ task_id: taskId }),
    });
  }

  /** The endpoint a path names, or undefined (the dashboard routes also answer without `/v1`). */
  static endpointOf(method: string, path: string): AccountEndpoint | undefined {
    if (method !== 'GET') return undefined;
    const p = path.replace(/\/+$/, '');
    if (p === '/api/status') return 'status';
    if (p === '/api/usage/token') return 'usage-token';
    if (p === '/api/pricing') return 'pricing';
    if (p === '/api/log/token') return 'log-token';
    if (p === '/v1/dashboard/billing/subscription' || p === '/dashboard/billing/subscription') return 'subscription';
    if (p === '/v1/dashboard/billing/usage' || p === '/dashboard/billing/usage') return 'usage';
    if (p === '/v1/key') return 'openrouter-key';
    if (p === '/v1/credits') return 'openrouter-credits';
    if (p === '/key/info') return 'litellm-key-info';
    return undefined;
  }

  /** The endpoint a path names on this instance: only its billing dialect's routes exist. */
  endpointFor(method: string, path: string): AccountEndpoint | undefined {
    const e = GatewayAccount.endpointOf(method, path);
    if (!e) return undefined;
    const dialect: BillingDialect = e.startsWith('openrouter')
      ? 'openrouter'
      : e.startsWith('litellm')
        ? 'litellm'
        : 'new-api';
    return dialect === this.knobs.billing ? e : undefined;
  }

  /** What an answer that cost `quota` reports of it, as the instance's relay does; `asked`: the request's `usage.include`. */
  costReport(quota: number, asked: boolean): CostReport {
    const dollars = quota / this.knobs.quotaPerUnit;
    if (this.knobs.billing === 'openrouter') return asked ? { usageCost: dollars } : {};
    if (this.knobs.billing === 'litellm') return { headers: { 'x-litellm-response-cost': String(dollars) } };
    return {};
  }

  /** Display value of a quota as billing.go computes it (the `_usd` fields are in the display unit). */
  private display(quota: number): number {
    switch (this.knobs.displayType) {
      case 'CNY':
        return (quota / this.knobs.quotaPerUnit) * this.knobs.usdExchangeRate;
      case 'TOKENS':
        return quota;
      default:
        return quota / this.knobs.quotaPerUnit;
    }
  }

  private expiresAt(): number {
    return this.knobs.expired ? Math.floor(Date.now() / 1000) - 3600 : 0;
  }

  /**
   * Answers one account endpoint. `keyKnown`: the request carried one of the gateway's keys;
   * `key`: that key (only to name it masked, as OpenRouter and LiteLLM do; never stored).
   */
  async handle(res: ServerResponse, endpoint: AccountEndpoint, keyKnown: boolean, key = ''): Promise<void> {
    const none = {};
    if (this.knobs.slowMs > 0) await sleep(this.knobs.slowMs);
    const mode = this.knobs.endpoints?.[endpoint] ?? 'ok';
    if (mode === 'missing') {
      return sendJson(
        res,
        404,
        { error: { message: 'Invalid URL', type: 'invalid_request_error', code: 'not_found' } },
        none,
      );
    }
    if (mode === 'error200') {
      const body =
        endpoint === 'subscription' || endpoint === 'usage'
          ? { error: { message: 'record not found', type: 'upstream_error' } }
          : { success: false, message: 'token lookup failed' };
      return sendJson(res, 200, body, none);
    }
    if (typeof mode === 'object') {
      const isText = typeof mode.body === 'string';
      const buf = Buffer.from(isText ? (mode.body as string) : JSON.stringify(mode.body), 'utf8');
      res.writeHead(mode.status ?? 200, {
        'content-type': mode.contentType ?? (isText ? 'text/html; charset=utf-8' : 'application/json'),
        'content-length': String(buf.length),
        ...(mode.location ? { location: mode.location } : {}),
      });
      res.end(buf);
      return;
    }
    const needsKey = endpoint !== 'status' && endpoint !== 'pricing';
    if (needsKey && !keyKnown) {
      return sendJson(res, 401, { success: false, message: 'invalid token' }, none);
    }
    const k = this.knobs;
    if (endpoint.startsWith('openrouter') || endpoint.startsWith('litellm'))
      return this.relayKeyRoute(res, endpoint, key);
    switch (endpoint) {
      case 'status':
        return sendJson(
          res,
          200,
          {
            success: true,
            message: '',
            data: {
              system_name: 'Gateway Studio local gateway',
              quota_per_unit: k.quotaPerUnit,
              display_in_currency: k.displayType !== 'TOKENS',
              quota_display_type: k.displayType,
              usd_exchange_rate: k.usdExchangeRate,
              custom_currency_symbol: k.customSymbol,
              custom_currency_exchange_rate: k.customRate,
              top_up_link: k.topUpLink,
              docs_link: '',
            },
          },
          none,
        );
      case 'usage-token':
        return sendJson(
          res,
          200,
          {
            code: true,
            message: 'ok',
            data: {
              object: 'token_usage',
              name: 'demo',
              total_granted: this.remaining + this.used,
              total_used: this.used,
              total_available: this.remaining,
              unlimited_quota: k.unlimited,
              model_limits: {},
              model_limits_enabled: false,
              expires_at: this.expiresAt(),
            },
          },
          none,
        );
      case 'pricing':
        return sendJson(
          res,
          200,
          {
            success: true,
            data: Object.entries({ ...ACCOUNT_PRICES, ...CHECKUP_PRICES }).map(([model_name, p]) => ({
              model_name,
              quota_type: p.quota_type,
              model_ratio: p.model_ratio,
              model_price: p.model_price,
              completion_ratio: p.completion_ratio,
              ...(p.cache_ratio !== undefined ? { cache_ratio: p.cache_ratio } : {}),
              enable_groups: ['default'],
              owner_by: '',
            })),
            group_ratio: { default: k.groupRatio, vip: 0.8 },
            usable_group: { default: 'default group', vip: 'VIP' },
          },
          none,
        );
      case 'log-token':
        return sendJson(res, 200, { success: true, message: '', data: this.logs.slice().reverse() }, none);
      case 'subscription': {
        const amount = k.unlimited ? UNLIMITED_DASHBOARD : this.display(this.remaining + this.used);
        return sendJson(
          res,
          200,
          {
            object: 'billing_subscription',
            has_payment_method: true,
            soft_limit_usd: amount,
            hard_limit_usd: amount,
            system_hard_limit_usd: amount,
            access_until: this.expiresAt(),
          },
          none,
        );
      }
      case 'usage':
        return sendJson(res, 200, { object: 'list', total_usage: this.display(this.used) * 100 }, none);
    }
  }

  /** OpenRouter's and LiteLLM's key routes, in dollars (their documented shapes: docs/relay-billing.md). */
  private relayKeyRoute(res: ServerResponse, endpoint: AccountEndpoint, key: string): Promise<void> {
    const k = this.knobs;
    const named = k.foreignKey ? 'sk-someone-elses-key-0000' : key;
    const dollars = (q: number) => q / k.quotaPerUnit;
    const limit = k.unlimited ? null : dollars(this.remaining + this.used);
    const expires = k.expired ? new Date(Date.now() - 3_600_000).toISOString() : null;
    if (endpoint === 'openrouter-credits') {
      if (!k.managementKey)
        return sendJson(
          res,
          403,
          { error: { code: 403, message: 'Only management keys can perform this operation' } },
          {},
        );
      return sendJson(
        res,
        200,
        { data: { total_credits: dollars(this.remaining + this.used), total_usage: dollars(this.used) } },
        {},
      );
    }
    if (endpoint === 'openrouter-key')
      return sendJson(
        res,
        200,
        {
          data: {
            label: `${named.slice(0, 9)}...${named.slice(-3)}`,
            limit,
            limit_remaining: limit === null ? null : dollars(this.remaining),
            limit_reset: null,
            include_byok_in_limit: false,
            usage: dollars(this.used),
            usage_daily: dollars(this.used),
            usage_weekly: dollars(this.used),
            usage_monthly: dollars(this.used),
            byok_usage: 0,
            is_free_tier: false,
            is_management_key: k.managementKey,
            is_provisioning_key: false,
            expires_at: expires,
          },
        },
        {},
      );
    return sendJson(
      res,
      200,
      {
        key: '88dc28d0f030c55ed4ab77ed8faf098196cb1c05df778539800c9f1243fe6b4b',
        info: {
          key_name: `sk-...${named.slice(-4)}`,
          key_alias: 'local-gateway',
          spend: dollars(this.used),
          max_budget: limit,
          expires,
          models: [],
          user_id: 'default_user_id',
          team_id: null,
          budget_reset_at: null,
        },
      },
      {},
    );
  }

  /** For tests: the balance and what has been charged. */
  snapshot(): { remaining: number; used: number; logs: LogRow[]; createdAt: number } {
    return { remaining: this.remaining, used: this.used, logs: this.logs.slice(), createdAt: this.createdAt };
  }
}
