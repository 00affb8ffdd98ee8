/**
 * The pure half of the video client: the task id of a creation response, one status type for the
 * current and the legacy format (spec 2.6, 2.7, 3), result-URL resolution and the checks that keep
 * hostile server values out of URL paths. No I/O here, so every rule is testable in isolation.
 */
import * as l10n from '@vscode/l10n';
import { redact } from '../../shared/redact';
import { GatewayError } from '../transport/errors';
import { checkServerGivenUrl } from '../transport/redirects';

/** Where a task stands. `pending` covers every processing and every unknown status (keep polling). */
export type VideoOutcome = 'pending' | 'completed' | 'failed' | 'cancelled' | 'expired';

/** One status, whichever format the gateway answered in. */
export interface VideoStatus {
  /** The id to poll and download with (the compatible id in the current format, the task id in the legacy one). */
  readonly id: string;
  readonly outcome: VideoOutcome;
  /** The status string as the gateway sent it (e.g. `in_progress`, `IN_PROGRESS`, `NOT_START`). */
  readonly status: string;
  /** 0-100 when the gateway said; informative only, never decides the outcome (spec 3 rule 3). */
  readonly progress?: number;
  /** The result location as sent (relative or absolute), when the gateway gave one. */
  readonly resultUrl?: string;
  /** Why the task failed, when the gateway said (`fail_reason`, `error.message`, …). */
  readonly failReason?: string;
  readonly model?: string;
  readonly format: 'current' | 'legacy';
  /** Set when the answer came from the legacy route `GET /v1/video/generations/{task_id}`. */
  readonly via?: 'legacy-route';
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

/**
 * Throws unless `id` is safe as one URL path segment: server-sent ids and pasted ids are hostile
 * input, and an id like `../models` would otherwise walk the path.
 */
export function assertVideoId(id: string): string {
  const s = id.trim();
  if (!ID.test(s) || s.includes('..')) {
    throw new GatewayError(
      'validation',
      l10n.t(
        '"{0}" is not a video id: ids are letters, digits and _ . : - (up to 200), as returned when the task was created.',
        s.slice(0, 80),
      ),
      { field: 'id' },
    );
  }
  return s;
}

/** A server's failure text reaches the user, the log and the model: never with the key in it. */
function reason(text: string | undefined): string | undefined {
  return text === undefined ? undefined : redact(text);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Spec 2.5 client rule: video id = `id`, else `request_id`, else `task_id` (first present). */
export function videoIdFromCreation(body: unknown): string {
  const r = rec(body);
  const data = rec(r?.data);
  const id = str(r?.id) ?? str(r?.request_id) ?? str(r?.task_id) ?? str(data?.id) ?? str(data?.task_id);
  if (!id) {
    throw new GatewayError(
      'invalid_response',
      l10n.t(
        'The gateway accepted the video request but returned no id, request_id or task_id; the task cannot be followed.',
      ),
    );
  }
  return assertVideoId(id);
}

/** `"30%"`, `"30"`, `30`, `0.3`? Percent strings and numbers become 0-100; anything else undefined. */
export function parseProgress(v: unknown): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(v);
    if (m) n = Number(m[1]);
  }
  if (n === undefined || !Number.isFinite(n)) return undefined;
  return Math.max(0, Math.min(100, n));
}

const CURRENT: Readonly<Record<string, VideoOutcome>> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  expired: 'expired',
};

/**
 * Normalises a status body of either format. The outcome comes from the status field only (spec 3
 * rules 1-3): progress 100 on a failed task is still a failure, and an unknown or processing status
 * means keep polling. `fallbackId` is the id that was polled, used when the body does not repeat it.
 */
export function normaliseVideoStatus(body: unknown, fallbackId: string): VideoStatus {
  const r = rec(body);
  if (!r) throw new GatewayError('invalid_response', l10n.t('The video status was not a JSON object.'));
  const data = rec(r.data);
  // The legacy envelope: `{ code, message, data: { task_id, status, progress, result_url, fail_reason } }`.
  if (data && r.status === undefined && (data.status !== undefined || data.task_id !== undefined)) {
    const status = str(data.status) ?? 'UNKNOWN';
    const upper = status.toUpperCase();
    const resultUrl = str(data.result_url) ?? str(rec(data.metadata)?.url) ?? str(rec(r.metadata)?.url);
    let outcome: VideoOutcome = 'pending';
    // Rule 2: SUCCESS alone is not enough; without a result URL keep polling.
    if (upper === 'SUCCESS' && resultUrl) outcome = 'completed';
    else if (upper === 'FAILURE' || upper === 'FAILED') outcome = 'failed';
    return {
      id: str(data.task_id) ?? fallbackId,
      outcome,
      status,
      progress: parseProgress(data.progress),
      resultUrl,
      failReason: reason(str(data.fail_reason) ?? (outcome === 'failed' ? str(r.message) : undefined)),
      model: str(data.model),
      format: 'legacy',
    };
  }
  const status = str(r.status) ?? 'unknown';
  const outcome = CURRENT[status.toLowerCase()] ?? 'pending';
  const video = rec(r.video);
  const err = rec(r.error);
  return {
    id: str(r.id) ?? fallbackId,
    outcome,
    status,
    progress: parseProgress(r.progress),
    resultUrl: str(r.url) ?? str(r.video_url) ?? str(video?.url) ?? str(data?.result_url) ?? str(rec(r.metadata)?.url),
    failReason: reason(
      str(r.fail_reason) ??
        str(err?.message) ??
        (typeof r.error === 'string' ? str(r.error) : undefined) ??
        str(r.reason),
    ),
    model: str(r.model),
    format: 'current',
  };
}

/**
 * Turns a result location into an absolute URL. Relative `/v1/...` paths are prefixed with the
 * video host (spec 2.6), other relative paths are resolved against the `/v1` root, and absolute
 * URLs are accepted only with http(s): a `file:` or `data:` URL from a server is refused.
 */
export function resolveResultUrl(location: string, videoBaseUrl: string): URL {
  const base = new URL(videoBaseUrl.endsWith('/') ? videoBaseUrl : `${videoBaseUrl}/`);
  const s = location.trim();
  let u: URL;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) {
    try {
      u = new URL(s);
    } catch {
      throw new GatewayError(
        'invalid_response',
        l10n.t('The video result URL "{0}" is not a valid address.', s.slice(0, 200)),
      );
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') {
      throw new GatewayError(
        'invalid_response',
        l10n.t('The video result URL uses {0}; only http(s) downloads are allowed.', u.protocol),
      );
    }
    checkServerGivenUrl(u, videoBaseUrl);
    return u;
  }
  if (s.startsWith('//'))
    throw new GatewayError('invalid_response', l10n.t('The video result URL "{0}" has no scheme.', s.slice(0, 200)));
  if (s.startsWith('/')) {
    // `/v1/videos/x/content` replaces the path of the `/v1` root rather than nesting under it.
    const rootPath = base.pathname.replace(/\/v1\/?$/, '').replace(/\/$/, '');
    return new URL(`${base.origin}${rootPath}${s}`);
  }
  return new URL(s, base);
}

/** The first bytes of an MP4 (`ftyp` at byte 4) or a WebM/Matroska file (`1A 45 DF A3`). */
export function looksLikeVideo(head: Uint8Array): boolean {
  if (head.length >= 8 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70) return true;
  return head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
}
