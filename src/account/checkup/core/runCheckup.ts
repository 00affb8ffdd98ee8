/**
 * The check-up's run: the probes in order (tokenizer, tools, speed, the window when allowed, then
 * the bill of all of them), each answer's usage added to what it spent. A stop (the signal) ends
 * the run between requests: the probes not run say so, and what was spent stays counted. Its
 * requests go through the port, so the vscode side sends them with the profile's client (whose
 * answers the ledger counts) and tests with a recorded or local relay.
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest, ChatResult, StreamOptions, Usage } from '../../../api/chat/wire';
import { isGatewayError } from '../../../api/transport/errors';
import { rawTextTokens } from '../../../shared/tokens';
import type { ModelPrice } from '../../pricing/core/pricing';
import { answerCost } from '../../spend/core/cost';
import { billVerdict, chargesSince, lastLogId, tokensOf, type FailedVideo, type LoggedCharge } from './bill';
import { fingerprintRequests, fingerprintVerdict } from './fingerprint';
import { SPEED_MAX_TOKENS, SPEED_STREAMS, speedRequest, speedVerdict, type StreamTiming } from './speed';
import { TOOL_CASES, toolRequest, toolVerdict, type CaseOutcome, type ToolCase } from './toolProbe';
import type { ProbeId, ProbeResult, Spent } from './types';
import { windowRequest, windowVerdict, type WindowOutcome } from './windowProbe';

export interface CheckupPort {
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  streamChat(req: ChatRequest, o: StreamOptions): Promise<ChatResult>;
  /** The relay's `/api/log/token` body, or why there is none (another billing dialect, an error). */
  billingLog?(signal?: AbortSignal): Promise<{ body: unknown } | { why: string }>;
  /** The cost the relay reported with an answer (OpenRouter, LiteLLM), in quota units. */
  reportedQuota?(usage: Usage | undefined): number | undefined;
  now(): number;
}

export interface CheckupPlan {
  model: string;
  /** The advertised price, in quota units (group ratio included); undefined when none is known. */
  price?: ModelPrice;
  /** The claimed context window; the window probe is skipped without it. */
  window?: number;
  /** The user allowed the window probe's cost. */
  allowWindow: boolean;
  /** Video tasks on this relay that failed yet were charged (the ledger's), for the bill. */
  failedVideo?: FailedVideo;
}

const ALL: readonly ProbeId[] = ['tokenizer', 'tools', 'speed', 'window', 'bill'];

function promptTokens(req: ChatRequest): number {
  let n = 0;
  for (const m of req.messages) {
    const text =
      typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => ('text' in p ? p.text : '')).join('');
    const calls =
      'tool_calls' in m ? (m.tool_calls ?? []).map((t) => t.function.name + t.function.arguments).join('') : '';
    n += 4 + rawTextTokens(text + calls);
  }
  return n + (req.tools?.length ? Math.ceil(JSON.stringify(req.tools).length / 4) : 0);
}

const caseCompletion = (c: ToolCase): number =>
  c.expect.length ? c.expect.reduce((n, e) => n + Math.ceil(JSON.stringify(e.arguments).length / 4) + 1, 0) : 12;

/** The requests each probe makes, with the completion tokens each is expected to use. */
function plannedRequests(plan: CheckupPlan): Array<{ probe: ProbeId; req: ChatRequest; completion: number }> {
  const out: Array<{ probe: ProbeId; req: ChatRequest; completion: number }> = [];
  for (const req of fingerprintRequests(plan.model)) out.push({ probe: 'tokenizer', req, completion: 1 });
  for (const c of TOOL_CASES)
    out.push({ probe: 'tools', req: toolRequest(plan.model, c), completion: caseCompletion(c) });
  for (let i = 0; i < SPEED_STREAMS; i++)
    out.push({ probe: 'speed', req: speedRequest(plan.model), completion: SPEED_MAX_TOKENS });
  if (plan.allowWindow && plan.window)
    out.push({ probe: 'window', req: windowRequest(plan.model, plan.window), completion: 1 });
  return out;
}

/** What the check-up is expected to cost, shown before it runs (tokens by the client's estimate). */
export function estimateCheckup(plan: CheckupPlan): Spent {
  let prompt = 0;
  let completion = 0;
  const reqs = plannedRequests(plan);
  for (const r of reqs) {
    prompt += promptTokens(r.req);
    completion += r.completion;
  }
  const cost = answerCost({ prompt_tokens: prompt, completion_tokens: completion }, plan.price);
  return {
    requests: reqs.length,
    promptTokens: prompt,
    completionTokens: completion,
    ...(cost.quota !== undefined ? { quota: cost.quota } : {}),
  };
}

export interface CheckupRun {
  probes: ProbeResult[];
  spent: Spent;
  stopped: boolean;
}

const empty = (): Spent => ({ requests: 0, promptTokens: 0, completionTokens: 0 });

function add(s: Spent, usage: Usage | undefined, price: ModelPrice | undefined): void {
  const t = tokensOf(usage);
  s.requests += 1;
  s.promptTokens += t.prompt;
  s.completionTokens += t.completion;
  const q = answerCost(usage, price).quota;
  if (q !== undefined) s.quota = (s.quota ?? 0) + q;
}

/** Runs the probes; `onProbe` hears each result as it is known (the report fills in). */
export async function runCheckup(
  port: CheckupPort,
  plan: CheckupPlan,
  o: { signal?: AbortSignal; onProbe?: (r: ProbeResult) => void; maxQuota?: number } = {},
): Promise<CheckupRun> {
  // One stop for both the caller's signal and the cost bound (a scheduled check-up's).
  const stop = new AbortController();
  if (o.signal?.aborted) stop.abort();
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  const run = new Runner(port, plan, stop.signal, () => {
    if (o.maxQuota !== undefined && (run.total.quota ?? 0) >= o.maxQuota) stop.abort();
  });
  const results: ProbeResult[] = [];
  const push = (r: ProbeResult) => {
    results.push(r);
    o.onProbe?.(r);
  };
  const before = port.billingLog
    ? await port.billingLog(stop.signal).catch((e: unknown) => ({ why: String(e) }))
    : undefined;
  const startedSec = Math.floor(port.now() / 1000) - 1;
  for (const id of ALL) {
    if (stop.signal.aborted) {
      push(skipped(id, l10n.t('Not run: the check-up was stopped.')));
      continue;
    }
    if (id === 'window' && !(plan.allowWindow && plan.window)) {
      push(
        skipped(
          id,
          plan.window
            ? l10n.t('Not run: its cost was not allowed.')
            : l10n.t('Not run: no claimed window is known for this model.'),
        ),
      );
      continue;
    }
    if (id === 'bill') {
      push({ ...(await run.bill(before, startedSec)), spent: empty() });
      continue;
    }
    const spent = empty();
    push({ ...(await run.probe(id, spent)), spent });
  }
  return { probes: results, spent: run.total, stopped: stop.signal.aborted };
}

function skipped(probe: ProbeId, summary: string): ProbeResult {
  return { probe, verdict: 'skipped', summary, evidence: [], spent: empty(), figures: {} };
}

class Runner {
  readonly total = empty();

  constructor(
    private readonly port: CheckupPort,
    private readonly plan: CheckupPlan,
    private readonly signal: AbortSignal | undefined,
    private readonly counted: () => void = () => undefined,
  ) {}

  /** One request; its usage (or a failed answer's partial usage) is counted either way. */
  private async send(req: ChatRequest, spent: Spent, o: StreamOptions = {}): Promise<ChatResult> {
    try {
      const r = req.stream
        ? await this.port.streamChat(req, { ...o, signal: this.signal })
        : await this.port.chat(req, this.signal);
      this.count(spent, r.usage);
      return r;
    } catch (e) {
      this.count(spent, isGatewayError(e) ? e.partial?.usage : undefined);
      throw e;
    }
  }

  private count(spent: Spent, usage: Usage | undefined): void {
    add(spent, usage, this.plan.price);
    add(this.total, usage, this.plan.price);
    const reported = this.port.reportedQuota?.(usage);
    if (reported !== undefined) this.reported = (this.reported ?? 0) + reported;
    this.counted();
  }

  private reported: number | undefined;

  async probe(id: ProbeId, spent: Spent): Promise<Omit<ProbeResult, 'spent'>> {
    const m = this.plan.model;
    if (id === 'tokenizer') {
      const counts: Array<number | undefined> = [];
      for (const req of fingerprintRequests(m)) {
        if (this.signal?.aborted) break;
        const r = await this.send(req, spent).catch((e: unknown) => ({ error: e }));
        if ('error' in r) return refusedProbe(id, r.error);
        counts.push(r.usage?.prompt_tokens);
      }
      return fingerprintVerdict(m, counts);
    }
    if (id === 'tools') {
      const outcomes: Array<{ c: ToolCase; outcome: CaseOutcome }> = [];
      let first: ChatResult | undefined;
      for (const c of TOOL_CASES) {
        if (this.signal?.aborted) break;
        const outcome: CaseOutcome = await this.send(toolRequest(m, c, first), spent).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        if (c.id === 'one' && 'result' in outcome) first = outcome.result;
        outcomes.push({ c, outcome });
      }
      return toolVerdict(outcomes);
    }
    if (id === 'speed') return this.speed(spent);
    const outcome: WindowOutcome = await this.send(windowRequest(m, this.plan.window!), spent).then(
      (r) => ({ usage: r.usage }),
      (error: unknown) => ({ error }),
    );
    return windowVerdict(this.plan.window!, outcome);
  }

  private async speed(spent: Spent): Promise<Omit<ProbeResult, 'spent'>> {
    const timings: StreamTiming[] = [];
    const failures: string[] = [];
    for (let i = 0; i < SPEED_STREAMS && !this.signal?.aborted; i++) {
      const t: StreamTiming = { startedAt: this.port.now(), endedAt: 0, textEvents: 0 };
      try {
        const r = await this.send(speedRequest(this.plan.model), spent, {
          onEvent: (e) => {
            if (e.type !== 'text' || e.text === '') return;
            t.firstTextAt ??= this.port.now();
            t.textEvents += 1;
          },
        });
        t.endedAt = this.port.now();
        if (r.usage?.completion_tokens !== undefined) t.completionTokens = r.usage.completion_tokens;
        timings.push(t);
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
    return speedVerdict(timings, failures);
  }

  async bill(
    before: { body: unknown } | { why: string } | undefined,
    sinceSec: number,
  ): Promise<Omit<ProbeResult, 'spent'>> {
    const expectedQuota = this.total.quota;
    const failedVideo = this.plan.failedVideo;
    if (this.reported !== undefined)
      return billVerdict({
        expectedQuota,
        failedVideo,
        charged: {
          quota: Math.round(this.reported),
          rows: this.total.requests,
          source: l10n.t('costs reported with the answers'),
        },
      });
    if (!this.port.billingLog) return billVerdict({ expectedQuota, failedVideo });
    const after = await this.port.billingLog(this.signal).catch((e: unknown) => ({ why: String(e) }));
    let charged: LoggedCharge =
      'why' in after
        ? { why: after.why }
        : chargesSince(after.body, {
            model: this.plan.model,
            afterId: before && 'body' in before ? lastLogId(before.body) : 0,
            sinceSec,
          });
    if (!('why' in charged)) charged = { ...charged, source: '/api/log/token' } as LoggedCharge;
    return billVerdict({ expectedQuota, charged, failedVideo });
  }
}

function refusedProbe(probe: ProbeId, error: unknown): Omit<ProbeResult, 'spent'> {
  return {
    probe,
    verdict: 'refused',
    summary: l10n.t('The relay refused the probe: {0}', error instanceof Error ? error.message : String(error)),
    evidence: [],
    figures: {},
  };
}
