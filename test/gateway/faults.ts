/**
 * Fault knobs of the local gateway: what a test can ask the next matching request(s) to suffer.
 * See test/gateway/README.md ("Faults") for the contract.
 */
import { expandRelayError, type RelayErrorShape } from './relayErrors';

/** Where a request landed; faults only apply where every one of their effects means something. */
export type RouteKind =
  'models' | 'chat' | 'completions' | 'video-create' | 'video-status' | 'video-legacy' | 'video-content' | 'images';

/** The error carried by a mid-stream error event. */
export interface MidStreamError {
  afterChunks: number;
  message?: string;
  type?: string;
  code?: string;
}

/** Every effect a fault can have; combine several in one fault to apply them together. */
export interface FaultEffects {
  status?: number;
  /** A relay's quota or balance refusal, by name (./relayErrors.ts): its status and body. */
  relayError?: RelayErrorShape;
  body?: unknown;
  headers?: Record<string, string>;
  retryAfter?: number | string;
  retryAfterMs?: number;
  delayMs?: number;
  drop?: 'before-headers';
  dropAfterBytes?: number;
  split?: number;
  crlf?: boolean;
  keepAlive?: boolean;
  eventNames?: boolean;
  noSpace?: boolean;
  chunkDelayMs?: number;
  /** Chunks on a fixed schedule: chunk i leaves at start + i / N s (late ones go at once, so the rate holds). */
  chunksPerSecond?: number;
  /** Record each content chunk's send time and text (`stamps()`, `GET /__control/stamps`), for latency benches. */
  stampChunks?: boolean;
  stallAfterChunks?: number;
  /** While stalled, send a `: PING` comment every N ms (a live but silent upstream, for idle watchdogs). */
  stallPingMs?: number;
  midStreamError?: MidStreamError;
  /** After N chunks, one `data:` event whose JSON is cut off (a relay's garbled line); the stream then goes on. */
  malformedChunk?: { afterChunks: number };
  noFinishReason?: boolean;
  usage?: 'finish' | 'separate' | 'none';
  rejectStreamOptions?: 400 | 422;
  /** Reject a chat request whose `tool_choice` is `"required"` (not in spec 2.1) with this status. */
  rejectRequiredToolChoice?: 400 | 422;
  toolStyle?: ToolStyle;
  /**
   * Every tool call of the answer gets the first call's id (`repeat`), an empty id (`empty`), or
   * `call_<position in the answer>` (`numbered`: every answer starts again at `call_0`).
   */
  toolIds?: 'repeat' | 'empty' | 'numbered';
  firstDelta?: 'empty' | 'null-content' | 'refusal-null';
  reasoningField?: 'reasoning_content' | 'reasoning';
  modelsEnvelope?: 'bare';
  statusFormat?: 'legacy';
  /** `other-host`: a signed-looking link on the chat host's public `/files/videos/{id}.mp4` (a CDN: no key). */
  contentUrl?: 'absolute' | 'relative' | 'other-host';
  progressOnFail?: number | string;
  contentJson?: boolean;
  contentTruncate?: number;
  contentType?: string;
  contentSize?: number;
  /** Send the headers and the first N bytes of the sample, then nothing, leaving the connection open. */
  contentStallAfterBytes?: number;
  /** Say `Accept-Ranges: bytes` (with an ETag) and answer `Range: bytes=N-` with a 206 of the rest. */
  acceptRanges?: boolean;
  /** With acceptRanges: a 206 whose Content-Range claims the file's start, whatever was asked. */
  wrongContentRange?: boolean;
  createOnly?: 'id' | 'request_id' | 'task_id';
  /** A compaction request's summary is this many characters, whatever its `max_tokens` (a verbose model). */
  verboseSummary?: number;
}

/** How tool-call deltas are cut into chunks (see wire-quirks "Tool-call deltas"). */
export type ToolStyle = 'canonical' | 'no-index' | 'all-index-0' | 'whole' | 'multi-per-chunk' | 'args-with-finish';

/** A queued fault: which requests it matches, how many it applies to, and what it does. */
export interface Fault extends FaultEffects {
  match?: { method?: string; path?: string };
  /** How many matching requests it applies to; -1 = until cleared. Default 1. */
  times?: number;
}

type EffectKey = keyof FaultEffects;

/** Effects that make sense on any route. */
const GENERAL: readonly EffectKey[] = [
  'status',
  'body',
  'headers',
  'retryAfter',
  'retryAfterMs',
  'delayMs',
  'drop',
  'dropAfterBytes',
  'split',
];

/** Effects specific to a route kind. A fault is skipped (and not used up) where one of its effects is meaningless. */
const SPECIFIC: Record<RouteKind, readonly EffectKey[]> = {
  models: ['modelsEnvelope'],
  images: [],
  chat: [
    'crlf',
    'keepAlive',
    'eventNames',
    'noSpace',
    'chunkDelayMs',
    'chunksPerSecond',
    'stampChunks',
    'stallAfterChunks',
    'stallPingMs',
    'midStreamError',
    'malformedChunk',
    'noFinishReason',
    'usage',
    'rejectStreamOptions',
    'rejectRequiredToolChoice',
    'toolStyle',
    'firstDelta',
    'reasoningField',
    'toolIds',
    'verboseSummary',
  ],
  completions: [],
  'video-create': ['createOnly'],
  'video-status': ['statusFormat', 'contentUrl', 'progressOnFail'],
  'video-legacy': ['contentUrl', 'progressOnFail'],
  'video-content': [
    'contentJson',
    'contentTruncate',
    'contentType',
    'contentSize',
    'contentStallAfterBytes',
    'acceptRanges',
    'wrongContentRange',
  ],
};

/** Keys that decide the same thing; two faults setting keys of one group do not combine. */
const GROUPS: readonly (readonly EffectKey[])[] = [['status', 'drop', 'body']];

const ALL_KEYS = new Set<string>([...GENERAL, ...Object.values(SPECIFIC).flat()]);

function effectKeys(f: Fault): EffectKey[] {
  return (Object.keys(f) as (keyof Fault)[]).filter(
    (k): k is EffectKey => k !== 'match' && k !== 'times' && f[k] !== undefined,
  );
}

function conflictKey(k: EffectKey): string {
  const g = GROUPS.findIndex((group) => group.includes(k));
  return g >= 0 ? `group${g}` : k;
}

/** What the current request is, for matching. */
export interface RequestInfo {
  method: string;
  path: string;
  kind: RouteKind;
  /** Chat requests only: whether the body carries `stream_options` (rejectStreamOptions applies only then). */
  hasStreamOptions?: boolean;
  /** Chat requests only: whether `tool_choice` is `"required"` (rejectRequiredToolChoice applies only then). */
  toolChoiceRequired?: boolean;
  /** Chat requests only: whether the answer is streamed (SSE-only effects need it). */
  stream?: boolean;
  /** Chat requests only: whether it is a compaction (summary) request (verboseSummary applies only then). */
  summaryRequest?: boolean;
}

/** Effects that only mean something on a streamed chat answer. */
const STREAM_ONLY: readonly EffectKey[] = [
  'crlf',
  'keepAlive',
  'eventNames',
  'noSpace',
  'chunkDelayMs',
  'chunksPerSecond',
  'stampChunks',
  'stallAfterChunks',
  'stallPingMs',
  'midStreamError',
  'malformedChunk',
  'noFinishReason',
  'toolStyle',
  'firstDelta',
];

/**
 * The queue of faults. Per request, every matching fault whose effects all apply to the route
 * is merged in queue order and used up once; a later fault that sets an effect an earlier one
 * already sets waits for a later request, so queuing `{status: 500}` then `{status: 429}` gives
 * 500 to the first request and 429 to the second.
 */
export class FaultQueue {
  private queue: { fault: Fault; left: number }[] = [];

  /** Queue a fault; throws on an unknown effect name so a typo in a test does not pass silently. */
  add(given: Fault): void {
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      throw new Error('a fault must be an object');
    const f = expandRelayError(given);
    for (const k of Object.keys(f)) {
      if (k !== 'match' && k !== 'times' && !ALL_KEYS.has(k)) throw new Error(`unknown fault effect "${k}"`);
    }
    const times = f.times ?? 1;
    if (!Number.isInteger(times) || (times < 1 && times !== -1)) {
      throw new Error('fault "times" must be a positive integer or -1');
    }
    this.queue.push({ fault: { ...f }, left: times });
  }

  clear(): void {
    this.queue = [];
  }

  /** Pending faults (for debugging a test). */
  list(): Fault[] {
    return this.queue.map((q) => ({ ...q.fault, times: q.left }));
  }

  /** Take the effects for this request, using up the faults that apply. */
  take(req: RequestInfo): FaultEffects {
    const allowed = new Set<EffectKey>([...GENERAL, ...SPECIFIC[req.kind]]);
    const merged: FaultEffects = {};
    const used = new Set<string>();
    for (const q of this.queue) {
      const f = q.fault;
      if (f.match?.method && f.match.method.toUpperCase() !== req.method) continue;
      if (f.match?.path && !req.path.includes(f.match.path)) continue;
      const keys = effectKeys(f);
      if (!keys.every((k) => allowed.has(k))) continue;
      if (keys.includes('rejectStreamOptions') && !req.hasStreamOptions) continue;
      if (keys.includes('rejectRequiredToolChoice') && !req.toolChoiceRequired) continue;
      if (keys.includes('verboseSummary') && !req.summaryRequest) continue;
      if (req.kind === 'chat' && !req.stream && keys.some((k) => STREAM_ONLY.includes(k))) continue;
      // Where usage goes only matters on a stream; "none" also drops it from a JSON answer.
      if (req.kind === 'chat' && !req.stream && (f.usage === 'finish' || f.usage === 'separate')) continue;
      if (keys.some((k) => used.has(conflictKey(k)))) continue;
      for (const k of keys) {
        used.add(conflictKey(k));
        (merged as Record<string, unknown>)[k] = f[k];
      }
      if (q.left > 0) q.left -= 1;
    }
    this.queue = this.queue.filter((q) => q.left !== 0);
    return merged;
  }
}
