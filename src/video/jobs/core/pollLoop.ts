/**
 * The one poll loop of a video task (spec 4 rule 3): the gateway client reads a status once
 * (`VideoClient.status`, `legacyStatus`); every rule about asking again lives here.
 */
import { isGatewayError, type GatewayError } from '../../../api/transport/errors';
import { sleep } from '../../../api/transport/retry';
import { assertVideoId, type VideoStatus } from '../../../api/video/videoStatus';

/** One status read on each route: `VideoClient` fits; tests may wrap it. */
export interface VideoStatusReader {
  /** `GET /v1/videos/{id}`. */
  status(id: string, signal?: AbortSignal): Promise<VideoStatus>;
  /** `GET /v1/video/generations/{task_id}` (spec 2.7), the route many relays serve. */
  legacyStatus(taskId: string, signal?: AbortSignal): Promise<VideoStatus>;
}

/**
 * The result of one round of polling: a final status, or the poll limit reached with the id kept.
 * `polls` counts the round's polls, those before a restart included.
 */
export type VideoPollResult =
  | { kind: 'done'; status: VideoStatus; polls: number }
  | { kind: 'timeout'; id: string; polls: number; last?: VideoStatus };

export interface VideoPollOptions {
  /** Wait between two polls (spec 4 rule 3: 5 s). */
  intervalMs: number;
  /** Polls before giving up with a `timeout` result (spec 4 rule 3: 60). */
  limit: number;
  /**
   * Polls of this round already made before a restart: numbering goes on from there and they count
   * toward `limit`, but at least one poll is made (the task may have finished meanwhile).
   */
  polled?: number;
  signal?: AbortSignal;
  onStatus?: (status: VideoStatus, poll: number) => void;
  /** A network error, 5xx or 429 that did not end the task (the next poll follows). */
  onTransientError?: (err: GatewayError, poll: number) => void;
}

/** Kinds of failure that do not end a poll round: the task itself is fine, the way to it is not. */
const TRANSIENT = ['network', 'timeout', 'server', 'rate_limit'] as const;

/**
 * Polls until a final status or `limit` polls (spec 4 rule 3). Network errors, 5xx and 429 count
 * as a poll and the loop goes on (a 429's Retry-After stretches the wait); 404, 401 and 403 end
 * it with their error. A timeout is a result, not an error: it carries the id so the task can be
 * checked later — it must never be submitted again.
 */
export async function pollLoop(reader: VideoStatusReader, id: string, o: VideoPollOptions): Promise<VideoPollResult> {
  const safe = assertVideoId(id);
  let last: VideoStatus | undefined;
  let legacyRoute = false;
  const first = (o.polled ?? 0) + 1;
  const end = Math.max(o.limit, first);
  for (let n = first; n <= end; n++) {
    let wait = o.intervalMs;
    try {
      const s: VideoStatus = legacyRoute
        ? await reader.legacyStatus(safe, o.signal)
        : await statusOrLegacy(reader, safe, o.signal);
      legacyRoute = s.format === 'legacy' && s.via === 'legacy-route';
      last = s;
      o.onStatus?.(s, n);
      if (s.outcome !== 'pending') return { kind: 'done', status: s, polls: n };
    } catch (err) {
      if (!isGatewayError(err, ...TRANSIENT)) throw err;
      o.onTransientError?.(err, n);
      const ra = Number.parseFloat(err.headers?.get('retry-after') ?? '');
      if (Number.isFinite(ra) && ra > 0 && ra <= 600) wait = Math.max(wait, ra * 1000);
    }
    if (n < end) await sleep(wait, o.signal);
  }
  return { kind: 'timeout', id: safe, polls: end, last };
}

/**
 * The current route, and on its 404 the legacy route once: relays that only know the old task
 * ids answer there (wire-quirks). The first 404 is what the user sees when both miss.
 */
async function statusOrLegacy(reader: VideoStatusReader, id: string, signal?: AbortSignal): Promise<VideoStatus> {
  try {
    return await reader.status(id, signal);
  } catch (err) {
    if (!isGatewayError(err, 'not_found')) throw err;
    try {
      return await reader.legacyStatus(id, signal);
    } catch (legacyErr) {
      // A 5xx, 429 or dropped connection on the legacy route says nothing about the id: it is
      // passed on as transient so polling goes on, where the current route's 404 would end it.
      if (isGatewayError(legacyErr, ...TRANSIENT)) throw legacyErr;
      throw err;
    }
  }
}
