/**
 * The local gateway: two HTTP hosts on 127.0.0.1 (chat and video) implementing service-spec.md,
 * with fault knobs and HTTP controls. The contract is test/gateway/README.md.
 */
import { randomBytes } from 'node:crypto';
import { GATEWAY_KEYS } from './keys';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { handleChat, isSummaryRequest, type ChunkStamp } from './chat';
import { adjustCheckupPlan, checkupRecords, checkupRule, isCheckupModel } from './checkup';
import { PromptCacheSim, type PromptCacheControl } from './promptCache';
import { handleResponses } from './responses';
import { FaultQueue, type Fault, type FaultEffects, type RouteKind } from './faults';
import {
  BodyWriter,
  HttpError,
  defaultErrorFor,
  faultHeaders,
  httpError,
  readBody,
  sendError,
  sendJson,
  sleep,
} from './http';
import { CHAT_MODELS, VIDEO_MODELS } from './models';
import { WINDOW_MODELS, windowRecord, type OverflowShape, type WindowRule } from './context';
import { VideoStore } from './video';
import { CHAT_IMAGE_MODELS, ImageStore } from './images';
import { createMultipart, createUnified } from './videoFamilies';
import { handleCompletions, type AbortedCompletion, type CompletionControl } from './completions';
import { GatewayAccount, type AccountKnobs, type BillingDialect } from './account';

export type { Fault } from './faults';
export type { ChunkStamp } from './chat';
export type { AbortedCompletion, CompletionControl } from './completions';
export type { AccountKnobs, BillingDialect } from './account';

/** What `setContextWindow` and `POST /__control/context` take. */
export interface ContextControl {
  enabled?: boolean;
  model?: string;
  window?: number;
  shape?: OverflowShape;
  field?: string;
  maxOutput?: number;
}

/** Options of {@link startGateway}; all optional. */
export interface GatewayOptions {
  /** Chat host port; 0 (default) picks a free one. */
  port?: number;
  /** Video host port; 0 (default) picks a free one. */
  videoPort?: number;
  /** Time between two progress steps of a video task (default 40 ms). */
  videoStepMs?: number;
  /** Steps from queued to the final state (default 4: queued, 25%, 50%, 75%, done). */
  videoSteps?: number;
  /** Delay between streamed chat chunks (default 0). */
  chatChunkDelayMs?: number;
  /** List and serve the windowed models of `context.ts` (default off; `/__control/context` turns it on). */
  contextModels?: boolean;
  /** List and serve the relay check-up's models of `checkup.ts` (default off; `/__control/checkup` turns it on). */
  checkupModels?: boolean;
  /** Time `POST /v1/completions` takes before answering (default 0; `setCompletions` changes it). */
  completionLatencyMs?: number;
  /** The keys this instance accepts (default: keys.ts's `GATEWAY_KEYS`); a second instance has its own. */
  keys?: { valid: string; noPermission: string; noBalance: string };
  /** Extra chat models: listed id -> the built-in model whose behaviour it answers with. */
  models?: Readonly<Record<string, string>>;
  /** A header every keyed route requires: 401 without it, 403 with another value. */
  requiredHeader?: { name: string; value: string };
  /** The relay whose billing routes and per-answer cost reports it serves (account.ts; default new-api). */
  billing?: BillingDialect;
  /** The prompt cache (promptCache.ts): off unless `enabled`; `refuse` answers 400 to a cache field. */
  promptCache?: PromptCacheControl;
}

/** How a request's key was judged. The key itself is never recorded. */
export type AuthOutcome = 'valid' | 'missing' | 'wrong' | 'noPermission' | 'noBalance';

/** One request as the gateway saw it. */
export interface RecordedRequest {
  method: string;
  /** Route pattern, e.g. `/v1/videos/:id`; the raw path for unknown routes. */
  route: string;
  path: string;
  host: 'chat' | 'video';
  auth: AuthOutcome;
  /** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
  /** Request headers without `authorization`. */
  headers: Record<string, string>;
}

/** A running gateway. */
export interface Gateway {
  /** The header this instance requires (a second instance's), if any. */
  requiredHeader?: { name: string; value: string };
  /** Chat host root, `http://127.0.0.1:PORT` (no `/v1`). */
  url: string;
  /** Video host root (a second port). */
  videoUrl: string;
  keys: { valid: string; noPermission: string; noBalance: string };
  /** Queue a fault; throws on an unknown effect name. */
  fault(f: Fault): void;
  clearFaults(): void;
  /** Requests per `METHOD /route/pattern`. */
  counts(): Record<string, number>;
  requests(): RecordedRequest[];
  /** Content chunks sent under the `stampChunks` knob, with their send times (the last 50,000). */
  stamps(): ChunkStamp[];
  resetCounts(): void;
  /** Finish a task now; throws when the id is unknown. */
  completeVideo(id: string): void;
  /** Fail a task now with `reason`; throws when the id is unknown. */
  failVideo(id: string, reason: string): void;
  /**
   * The context-window knob: turns the windowed models on (listed and served) and, with `model`,
   * sets that model's window, refusal shape or listed field (a new id becomes a windowed model).
   */
  setContextWindow(c: ContextControl): void;
  /** The completions knobs: latency, and texts a prompt's end is continued from (completions.ts). */
  setCompletions(c: CompletionControl): void;
  /** Completion requests whose client closed the connection before the answer (cleared by `resetCounts`). */
  abortedCompletions(): AbortedCompletion[];
  /** The account knobs (test/gateway/account.ts): display type, quota per unit, balance, endpoint modes. */
  setAccount(k: AccountKnobs): void;
  /** The key's remaining quota, what it used, and the log rows (`/api/log/token`). */
  account(): ReturnType<GatewayAccount['snapshot']>;
  /** The prompt cache's knobs (promptCache.ts); throws on an unknown dialect or field. */
  setPromptCache(c: PromptCacheControl): void;
  /** Stop both hosts, ending open streams; resolves when both are closed. */
  close(): Promise<void>;
}

/** Requests kept by `requests()`; older ones are dropped (counts keep counting). */
const MAX_RECORDED = 2000;
/** Chunk stamps kept (a latency bench streams a few thousand per run). */
const MAX_STAMPS = 50_000;
type GatewayKeys = { valid: string; noPermission: string; noBalance: string };

interface Route {
  kind: RouteKind;
  pattern: string;
  id?: string;
  /** Served without a key, like a signed CDN link (the key is still judged and recorded). */
  open?: boolean;
}

type Host = 'chat' | 'video';

/** A path segment decoded; a malformed escape stays as sent (it then finds no task: 404, not a crash). */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function matchRoute(host: Host, method: string, path: string): Route | 'not-found' | 'bad-method' {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const want = (m: string, r: Route): Route | 'bad-method' => (m === method ? r : 'bad-method');
  if (p === '/v1/models') return want('GET', { kind: 'models', pattern: '/v1/models' });
  if (host === 'chat') {
    if (p === '/v1/chat/completions') return want('POST', { kind: 'chat', pattern: '/v1/chat/completions' });
    // The Responses API shares the chat's faults (match a path to aim one at either).
    if (p === '/v1/responses') return want('POST', { kind: 'chat', pattern: '/v1/responses' });
    if (p === '/v1/completions') return want('POST', { kind: 'completions', pattern: '/v1/completions' });
    if (p === '/v1/images/generations') return want('POST', { kind: 'images', pattern: '/v1/images/generations' });
    if (p === '/v1/images/edits') return want('POST', { kind: 'images', pattern: '/v1/images/edits' });
    // The link host of image `url` answers (signed-link style: no key).
    const img = /^\/files\/images\/([^/]+)$/.exec(p);
    if (img) return want('GET', { kind: 'images', pattern: '/files/images/:name', id: segment(img[1]!), open: true });
    // The "third-party" download host of `contentUrl: "other-host"` links.
    const f = /^\/files\/videos\/([^/]+)\.mp4$/.exec(p);
    if (f)
      return want('GET', { kind: 'video-content', pattern: '/files/videos/:id.mp4', id: segment(f[1]!), open: true });
    return 'not-found';
  }
  if (p === '/v1/videos/generations') return want('POST', { kind: 'video-create', pattern: '/v1/videos/generations' });
  // The relays' forms (issue 40): new-api's unified route, OpenAI's multipart one.
  if (p === '/v1/video/generations') return want('POST', { kind: 'video-create', pattern: '/v1/video/generations' });
  if (p === '/v1/videos') return want('POST', { kind: 'video-create', pattern: '/v1/videos' });
  let m = /^\/v1\/videos\/([^/]+)\/content$/.exec(p);
  if (m) return want('GET', { kind: 'video-content', pattern: '/v1/videos/:id/content', id: segment(m[1]!) });
  m = /^\/v1\/videos\/([^/]+)$/.exec(p);
  if (m) return want('GET', { kind: 'video-status', pattern: '/v1/videos/:id', id: segment(m[1]!) });
  m = /^\/v1\/video\/generations\/([^/]+)$/.exec(p);
  if (m) return want('GET', { kind: 'video-legacy', pattern: '/v1/video/generations/:task_id', id: segment(m[1]!) });
  return 'not-found';
}

function judgeKey(header: string | undefined, KEYS: GatewayKeys): AuthOutcome {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  if (!m) return 'missing';
  const key = m[1]!.trim();
  if (key === KEYS.valid) return 'valid';
  if (key === KEYS.noPermission) return 'noPermission';
  if (key === KEYS.noBalance) return 'noBalance';
  return 'wrong';
}

function authError(a: AuthOutcome): HttpError | undefined {
  switch (a) {
    case 'valid':
      return undefined;
    case 'missing':
      return httpError(
        401,
        'authentication_error',
        'invalid_api_key',
        'No API key provided: send the header Authorization: Bearer <API_KEY>',
      );
    case 'wrong':
      return httpError(401, 'authentication_error', 'invalid_api_key', 'Incorrect API key provided');
    case 'noPermission':
      return httpError(403, 'permission_denied', 'permission_denied', 'model not allowed for this group');
    case 'noBalance':
      return httpError(
        403,
        'insufficient_quota',
        'insufficient_quota',
        'insufficient balance: top up the account in the console',
      );
  }
}

function tryJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Start both hosts on 127.0.0.1. */
export async function startGateway(opts: GatewayOptions = {}): Promise<Gateway> {
  const whole = (
    name: Exclude<
      keyof GatewayOptions,
      | 'contextModels'
      | 'checkupModels'
      | 'completionLatencyMs'
      | 'keys'
      | 'models'
      | 'requiredHeader'
      | 'billing'
      | 'promptCache'
    >,
    min: number,
  ): void => {
    const v = opts[name];
    if (v !== undefined && (!Number.isInteger(v) || v < min))
      throw new Error(`startGateway: ${name} must be an integer >= ${min} (got ${String(v)})`);
  };
  whole('port', 0);
  whole('videoPort', 0);
  whole('videoStepMs', 1);
  whole('videoSteps', 1);
  whole('chatChunkDelayMs', 0);
  if (opts.billing !== undefined && !['new-api', 'openrouter', 'litellm'].includes(opts.billing))
    throw new Error(`startGateway: billing must be new-api, openrouter or litellm (got ${String(opts.billing)})`);
  const KEYS: GatewayKeys = opts.keys ?? GATEWAY_KEYS;
  const extraModels = opts.models ?? {};
  for (const [id, as] of Object.entries(extraModels))
    if (!CHAT_MODELS.some((m) => m.id === as))
      throw new Error(`startGateway: models["${id}"] must name a built-in chat model (got ${as})`);
  const extraRecords = Object.entries(extraModels).map(([id, as]) => ({
    ...CHAT_MODELS.find((m) => m.id === as)!,
    id,
    owned_by: 'second-gateway',
  }));
  /** The required header's verdict: undefined when it is there and right (or none is required). */
  const headerDenied = (req: IncomingMessage): HttpError | undefined => {
    const need = opts.requiredHeader;
    if (!need) return undefined;
    const got = req.headers[need.name.toLowerCase()];
    if (got === undefined)
      return httpError(401, 'authentication_error', 'missing_header', `this relay requires the header ${need.name}`);
    if (got !== need.value)
      return httpError(
        403,
        'permission_denied',
        'wrong_header',
        `the header ${need.name} has a value this relay does not accept`,
      );
    return undefined;
  };
  const faults = new FaultQueue();
  let contextOn = opts.contextModels ?? false;
  let checkupOn = opts.checkupModels ?? false;
  const windows = new Map<string, WindowRule>(Object.entries(WINDOW_MODELS).map(([k, v]) => [k, { ...v }]));
  const setContext = (c: ContextControl): void => {
    contextOn = c.enabled ?? true;
    if (c.model === undefined) return;
    const old = windows.get(c.model) ?? { window: 8192, shape: 'openai', field: 'context_length' };
    if (c.window !== undefined && (!Number.isInteger(c.window) || c.window < 1))
      throw httpError(400, 'invalid_request_error', 'invalid_context', 'window must be a positive integer');
    windows.set(c.model, {
      window: c.window ?? old.window,
      shape: c.shape ?? old.shape,
      field: c.field ?? old.field,
      ...((c.maxOutput ?? old.maxOutput) !== undefined ? { maxOutput: c.maxOutput ?? old.maxOutput } : {}),
    });
  };
  const completionControl: Required<CompletionControl> = { latencyMs: 0, texts: [] };
  const setCompletions = (c: CompletionControl): void => {
    if (c.latencyMs !== undefined) {
      if (!Number.isInteger(c.latencyMs) || c.latencyMs < 0)
        throw httpError(400, 'invalid_request_error', 'invalid_completions', 'latencyMs must be an integer >= 0');
      completionControl.latencyMs = c.latencyMs;
    }
    if (c.texts !== undefined) {
      if (!Array.isArray(c.texts) || !c.texts.every((t) => typeof t === 'string'))
        throw httpError(400, 'invalid_request_error', 'invalid_completions', 'texts must be an array of strings');
      completionControl.texts = [...c.texts];
    }
  };
  setCompletions({ latencyMs: opts.completionLatencyMs ?? 0 });
  let aborted: AbortedCompletion[] = [];
  const account = new GatewayAccount(opts.billing);
  const promptCache = new PromptCacheSim(opts.promptCache);
  const videos = new VideoStore(
    opts.videoStepMs ?? 40,
    opts.videoSteps ?? 4,
    (model, seconds, id) => account.chargeClip(model, seconds, id),
    (model, seconds, id) => account.clipFailed(model, seconds, id),
  );
  const images = new ImageStore((model, n, id) => account.chargeClip(model, n, id));
  const chunkDelayMs = opts.chatChunkDelayMs ?? 0;
  let counts: Record<string, number> = {};
  let requests: RecordedRequest[] = [];
  let stamps: ChunkStamp[] = [];
  const stamp = (st: ChunkStamp): void => {
    stamps.push(st);
    if (stamps.length > MAX_STAMPS) stamps.splice(0, stamps.length - MAX_STAMPS);
  };
  const sockets = new Set<Socket>();
  let videoUrl = '';

  const control = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const none: FaultEffects = {};
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const ok = (body: unknown = { ok: true }): Promise<void> => sendJson(res, 200, body, none);
    if (method === 'POST' && path === '/__control/fault') {
      const parsed = tryJson(raw);
      try {
        faults.add(parsed as Fault);
      } catch (err) {
        throw httpError(400, 'invalid_request_error', 'invalid_fault', (err as Error).message);
      }
      return ok();
    }
    if (method === 'POST' && path === '/__control/context') {
      const parsed = tryJson(raw);
      setContext(typeof parsed === 'object' && parsed !== null ? (parsed as ContextControl) : {});
      return ok();
    }
    if (method === 'POST' && path === '/__control/checkup') {
      const parsed = tryJson(raw);
      checkupOn = !(
        typeof parsed === 'object' &&
        parsed !== null &&
        (parsed as { enabled?: unknown }).enabled === false
      );
      return ok();
    }
    if (method === 'POST' && path === '/__control/completions') {
      const parsed = tryJson(raw);
      setCompletions(typeof parsed === 'object' && parsed !== null ? (parsed as CompletionControl) : {});
      return ok();
    }
    if (method === 'GET' && path === '/__control/aborted') return ok(aborted);
    if (method === 'POST' && path === '/__control/account') {
      const parsed = tryJson(raw);
      account.set(typeof parsed === 'object' && parsed !== null ? (parsed as AccountKnobs) : {});
      return ok();
    }
    if (method === 'GET' && path === '/__control/account') return ok(account.snapshot());
    if (method === 'POST' && path === '/__control/cache') {
      const parsed = tryJson(raw);
      try {
        promptCache.set(typeof parsed === 'object' && parsed !== null ? (parsed as PromptCacheControl) : {});
      } catch (err) {
        throw httpError(400, 'invalid_request_error', 'invalid_cache', (err as Error).message);
      }
      return ok();
    }
    if (method === 'POST' && path === '/__control/clear') {
      faults.clear();
      return ok();
    }
    if (method === 'POST' && path === '/__control/reset') {
      faults.clear();
      counts = {};
      requests = [];
      stamps = [];
      aborted = [];
      setCompletions({ latencyMs: opts.completionLatencyMs ?? 0, texts: [] });
      videos.reset();
      images.reset();
      account.reset();
      promptCache.reset();
      return ok();
    }
    if (method === 'GET' && path === '/__control/counts') return ok(counts);
    if (method === 'GET' && path === '/__control/requests') return ok(requests);
    if (method === 'GET' && path === '/__control/stamps') return ok(stamps);
    if (method === 'GET' && path === '/__control/faults') return ok(faults.list());
    const m = /^\/__control\/videos\/([^/]+)\/(complete|fail)$/.exec(path);
    if (method === 'POST' && m) {
      const id = segment(m[1]!);
      const body = tryJson(raw);
      const reason =
        typeof body === 'object' && body !== null && typeof (body as { reason?: unknown }).reason === 'string'
          ? (body as { reason: string }).reason
          : 'failed by the test';
      const found = m[2] === 'complete' ? videos.complete(id) : videos.fail(id, reason);
      if (!found) throw httpError(404, 'invalid_request_error', 'video_not_found', `no video task with id ${id}`, 'id');
      return ok();
    }
    throw httpError(404, 'invalid_request_error', 'not_found', `unknown control route ${method} ${path}`);
  };

  const handle = async (host: Host, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let fx: FaultEffects = {};
    // Real gateways tag every answer so a user can quote it in a support request.
    res.setHeader('x-request-id', `req_${randomBytes(8).toString('hex')}`);
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path.startsWith('/__control/')) return await control(req, res, path);

      const route = matchRoute(host, method, path);
      const raw = await readBody(req);
      const auth = judgeKey(req.headers.authorization, KEYS);
      const pattern = typeof route === 'string' ? path : route.pattern;
      const key = `${method} ${pattern}`;
      counts[key] = (counts[key] ?? 0) + 1;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (k !== 'authorization' && v !== undefined) headers[k] = String(v);
      const body = tryJson(raw);
      requests.push({ method, route: pattern, path, host, auth, body, headers });
      // A long demo session with image attachments must not grow without bound.
      if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);

      const accountEndpoint =
        host === 'chat' || account.knobs.onVideoHost ? account.endpointFor(method, path) : undefined;
      const missingHeader = route !== 'not-found' || accountEndpoint ? headerDenied(req) : undefined;
      if (missingHeader && !(typeof route === 'object' && route.open)) throw missingHeader;
      if (route === 'not-found' && accountEndpoint)
        return await account.handle(
          res,
          accountEndpoint,
          auth !== 'missing' && auth !== 'wrong',
          /^Bearer\s+(.+)$/i.exec(req.headers.authorization?.trim() ?? '')?.[1]?.trim(),
        );
      if (route === 'not-found')
        throw httpError(
          404,
          'invalid_request_error',
          'not_found',
          `Invalid URL (${method} ${path}): this host serves ${host === 'chat' ? '/v1/models, /v1/chat/completions, /v1/responses, /v1/completions and /v1/images/…' : '/v1/models, /v1/videos/… and /v1/video/generations'}`,
        );
      if (route === 'bad-method')
        throw httpError(405, 'invalid_request_error', 'method_not_allowed', `${method} is not allowed on ${path}`);
      const denied = route.open ? undefined : authError(auth);
      if (denied) throw denied;
      const multipart = route.pattern === '/v1/images/edits' || route.pattern === '/v1/videos';
      if (method === 'POST' && typeof body !== 'object' && !multipart) {
        throw httpError(
          400,
          'invalid_request_error',
          'invalid_json',
          raw.length === 0 ? 'request body is empty; expected a JSON object' : 'request body is not valid JSON',
        );
      }
      const b = body as Record<string, unknown> | undefined;
      fx = faults.take({
        method,
        path,
        kind: route.kind,
        hasStreamOptions: b?.stream_options !== undefined,
        toolChoiceRequired: b?.tool_choice === 'required',
        stream: b?.stream === true,
        summaryRequest: isSummaryRequest(b),
      });
      if (fx.delayMs) await sleep(fx.delayMs);
      if (fx.drop === 'before-headers') {
        req.socket.destroy();
        return;
      }
      if (res.destroyed) return;
      if (fx.status !== undefined) {
        const model = typeof b?.model === 'string' ? b.model : undefined;
        const errBody = fx.body ?? { error: defaultErrorFor(fx.status, model) };
        const isText = typeof errBody === 'string';
        const buf = Buffer.from(isText ? errBody : JSON.stringify(errBody), 'utf8');
        res.writeHead(fx.status, {
          'content-type': isText
            ? errBody.trimStart().startsWith('<')
              ? 'text/html; charset=utf-8'
              : 'text/plain; charset=utf-8'
            : 'application/json; charset=utf-8',
          'content-length': String(buf.length),
          ...faultHeaders(fx),
        });
        const w = new BodyWriter(res, fx);
        if (await w.write(buf)) w.end();
        return;
      }
      switch (route.kind) {
        case 'models': {
          const windowed = [
            ...(contextOn ? [...windows].map(([id, rule]) => windowRecord(id, rule)) : []),
            ...(checkupOn ? checkupRecords() : []),
          ];
          const data =
            host === 'chat' ? [...CHAT_MODELS, ...extraRecords, ...windowed, ...VIDEO_MODELS] : [...VIDEO_MODELS];
          return await sendJson(res, 200, fx.modelsEnvelope === 'bare' ? data : { object: 'list', data }, fx);
        }
        case 'images':
          if (route.pattern === '/v1/images/generations') return await images.generate(res, body, fx);
          if (route.pattern === '/v1/images/edits') return await images.edit(res, raw, req.headers['content-type'], fx);
          return await images.file(res, route.id!, fx);
        case 'chat':
          if (route.pattern === '/v1/chat/completions' && b && CHAT_IMAGE_MODELS.has(String(b.model)))
            return await images.chat(res, b, fx);
          if (route.pattern === '/v1/responses')
            return await handleResponses(
              res,
              b && typeof b.model === 'string' && extraModels[b.model] ? { ...b, model: extraModels[b.model] } : body,
              fx,
              chunkDelayMs,
              (id) => (contextOn ? windows.get(id) : undefined),
              (model, usage) => account.chargeChat(model, usage),
            );
          // A second instance's own model answers as the built-in model it stands for.
          return await handleChat(
            res,
            b && typeof b.model === 'string' && extraModels[b.model] ? { ...b, model: extraModels[b.model] } : body,
            fx,
            chunkDelayMs,
            (id) => (checkupOn && isCheckupModel(id) ? checkupRule(id) : contextOn ? windows.get(id) : undefined),
            stamp,
            (model, usage, asked) => account.costReport(account.chargeChat(model, usage), asked),
            checkupOn && b && isCheckupModel(b.model) ? (p) => adjustCheckupPlan(p, b) : undefined,
            // The cache sees the id the client sent (a Claude id caches at marks only).
            promptCache.take(b && typeof b.model === 'string' ? b.model : '', body),
          );
        case 'completions':
          return await handleCompletions(res, body, fx, completionControl, (a) => {
            aborted.push(a);
            if (aborted.length > MAX_RECORDED) aborted.splice(0, aborted.length - MAX_RECORDED);
          });
        case 'video-create':
          if (route.pattern === '/v1/video/generations') return await createUnified(res, body, videos, fx);
          if (route.pattern === '/v1/videos')
            return await createMultipart(res, raw, req.headers['content-type'], videos, fx);
          return await videos.create(res, body, fx);
        case 'video-status':
          return await videos.status(res, route.id!, videoUrl, fx);
        case 'video-legacy':
          return await videos.legacyStatus(res, route.id!, videoUrl, fx);
        case 'video-content':
          return await videos.content(res, route.id!, videoUrl, fx, {
            range: req.headers.range,
            ifRange: typeof req.headers['if-range'] === 'string' ? req.headers['if-range'] : undefined,
          });
      }
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const e =
        err instanceof HttpError
          ? err
          : httpError(500, 'server_error', 'internal_error', `gateway bug: ${(err as Error).message}`);
      await sendError(res, e, fx);
    }
  };

  const make = (host: Host): Server => {
    const s = createServer((req, res) => {
      void handle(host, req, res).catch(() => res.destroy());
    });
    s.on('connection', (sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    s.on('clientError', (_err, sock) => sock.destroy());
    // CONNECT is answered by tunnelling into this same host, whatever host the request names: a
    // real proxy (tinyproxy's `Upstream`) can then route a made-up name to it, as proxy tests need.
    s.on('connect', (_req: IncomingMessage, sock: Socket, head: Buffer) => {
      sock.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) sock.unshift(head);
      s.emit('connection', sock);
    });
    return s;
  };

  const listen = (s: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject);
        resolve((s.address() as AddressInfo).port);
      });
    });

  const chatServer = make('chat');
  const videoServer = make('video');
  const chatPort = await listen(chatServer, opts.port ?? 0);
  let vPort: number;
  try {
    vPort = await listen(videoServer, opts.videoPort ?? 0);
  } catch (err) {
    chatServer.close();
    throw err;
  }
  const url = `http://127.0.0.1:${chatPort}`;
  videoUrl = `http://127.0.0.1:${vPort}`;
  videos.otherUrl = url;
  images.hostUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    videoUrl,
    keys: { ...KEYS },
    requiredHeader: opts.requiredHeader ? { ...opts.requiredHeader } : undefined,
    fault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    setContextWindow: setContext,
    setCompletions,
    abortedCompletions: () => aborted.slice(),
    setAccount: (k) => account.set(k),
    account: () => account.snapshot(),
    setPromptCache: (c) => promptCache.set(c),
    counts: () => ({ ...counts }),
    requests: () => requests.slice(),
    stamps: () => stamps.slice(),
    resetCounts: () => {
      counts = {};
      requests = [];
      stamps = [];
      aborted = [];
    },
    completeVideo: (id) => {
      if (!videos.complete(id)) throw new Error(`no video task with id ${id}`);
    },
    failVideo: (id, reason) => {
      if (!videos.fail(id, reason)) throw new Error(`no video task with id ${id}`);
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        let left = 2;
        const one = (): void => {
          left -= 1;
          if (left === 0) resolve();
        };
        chatServer.close(one);
        videoServer.close(one);
        faults.clear();
        // Open streams (stalled ones included) would keep close() waiting forever.
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
