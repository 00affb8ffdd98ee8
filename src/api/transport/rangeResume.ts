// Resuming a download whose connection dropped mid-body: ask for the rest with `Range` instead of
// the whole video again (a 1 GB video cut at 900 MB used to start over, through the job's retry).
// Only when the server said `Accept-Ranges: bytes` and gave a Content-Length; the answer must be a
// 206 whose Content-Range starts exactly where the file ends and covers the rest of the same
// length, else the download starts over from a full answer.
import * as l10n from '@vscode/l10n';
import { GatewayError } from './errors';
import type { WireResponse } from './wireGet';

/** How many times one download asks again (resumes and restarts together) after drops. */
export const MAX_RESUMES = 5;

/** What a full (200) answer says about its body. */
export interface BodyMeta {
  /** Content-Length, when the server gave a usable one. */
  total: number | undefined;
  /** Whether a drop may be resumed with Range: `Accept-Ranges: bytes` and a known length. */
  ranges: boolean;
  /** An `If-Range` value (a strong ETag, else Last-Modified): a changed file is sent whole. */
  validator: string | undefined;
}

export function bodyMeta(res: WireResponse): BodyMeta {
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const acceptRanges = (res.headers.get('accept-ranges') ?? '').toLowerCase();
  const etag = res.headers.get('etag');
  // A weak ETag may not be used with If-Range (RFC 9110 13.1.5).
  const validator = etag && !etag.startsWith('W/') ? etag : (res.headers.get('last-modified') ?? undefined);
  return { total, ranges: total !== undefined && /\bbytes\b/.test(acceptRanges), validator };
}

/**
 * Asks for the bytes after `written`. Resolves with the answer and where its body starts: at
 * `written` for a valid 206, at 0 for a full answer (the server ignored Range, or the file
 * changed and If-Range sent it whole, or the 206 did not fit and the whole video was asked for).
 */
export async function resumeFrom(
  get: (headers?: Record<string, string>) => Promise<WireResponse>,
  o: { written: number; meta: BodyMeta; shown: string; log: (msg: string) => void },
): Promise<{ res: WireResponse; from: number }> {
  const headers: Record<string, string> = { Range: `bytes=${o.written}-` };
  if (o.meta.validator !== undefined) headers['If-Range'] = o.meta.validator;
  const res = await get(headers);
  if (res.status !== 206) return { res, from: 0 };
  const range = res.headers.get('content-range') ?? '';
  if (fits(range, o.written, o.meta.total)) return { res, from: o.written };
  res.body.destroy();
  o.log(`GET ${o.shown}: asked for bytes ${o.written}- and got Content-Range "${range}"; starting over`);
  const full = await get();
  if (full.status === 206) {
    full.body.destroy();
    throw new GatewayError(
      'invalid_response',
      l10n.t('{0} answered a download without Range with a partial body (206); nothing was saved.', o.shown),
      { path: o.shown, status: 206 },
    );
  }
  return { res: full, from: 0 };
}

/** Whether a Content-Range is exactly `bytes <written>-<total-1>/<total>`. */
function fits(range: string, written: number, total: number | undefined): boolean {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range.trim());
  if (!m || total === undefined) return false;
  return Number(m[1]) === written && Number(m[2]) === total - 1 && Number(m[3]) === total;
}
