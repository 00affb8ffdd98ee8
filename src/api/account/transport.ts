/**
 * The account endpoints read through the gateway's own HTTP client (src/api/transport/http.ts): the same
 * key handling (sent only to the gateway's origin), proxy, timeouts, and redirect policy (an API
 * call never follows one, so no redirect can carry the key elsewhere). What comes back is sorted
 * into the three answers detection needs: a JSON body, "this gateway has no such endpoint", or a
 * failure worth a log line.
 */
import { isGatewayError } from '../transport/errors';
import type { HttpClient } from '../transport/http';

export type Fetched =
  | { kind: 'json'; body: unknown }
  /** 404/405, or a web page where JSON was asked for (a console that serves its app for every path). */
  | { kind: 'missing'; why: string }
  | { kind: 'failed'; why: string };

export interface AccountTransport {
  /** GET a path from the gateway's root (`/api/status`) or an absolute URL (a configured source). */
  get(pathOrUrl: string, signal?: AbortSignal): Promise<Fetched>;
}

/** Account answers are small; a body beyond this is not read to the end. */
export const MAX_ACCOUNT_BODY = 2 * 1024 * 1024;
/** Account reads never wait as long as a chat answer may. */
export const ACCOUNT_TIMEOUT_MS = 10_000;

/** The gateway's root: its `/v1` base without the `/v1` (new-api serves `/api/…` there). */
export function gatewayRoot(baseV1: string): string {
  return baseV1.replace(/\/v1$/, '');
}

export function transportOver(http: HttpClient, o: { timeoutMs?: number; maxBytes?: number } = {}): AccountTransport {
  const root = gatewayRoot(http.baseUrl);
  const maxBytes = o.maxBytes ?? MAX_ACCOUNT_BODY;
  return {
    async get(pathOrUrl, signal) {
      const url = /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : root + pathOrUrl;
      let text = '';
      let type = '';
      try {
        // One attempt: a balance read is never worth a retry storm; the next refresh tries again.
        const res = await http.request('GET', url, {
          retry: false,
          timeoutMs: o.timeoutMs ?? ACCOUNT_TIMEOUT_MS,
          signal,
        });
        type = res.headers.get('content-type') ?? '';
        const dec = new TextDecoder();
        let size = 0;
        for await (const chunk of http.body(res, { signal })) {
          size += chunk.byteLength;
          if (size > maxBytes) return { kind: 'failed', why: `answered more than ${maxBytes} bytes` };
          text += dec.decode(chunk, { stream: true });
        }
        text += dec.decode();
      } catch (e) {
        if (isGatewayError(e) && (e.status === 404 || e.status === 405))
          return { kind: 'missing', why: `HTTP ${e.status}` };
        return { kind: 'failed', why: e instanceof Error ? e.message : String(e) };
      }
      const head = text.trimStart().slice(0, 1);
      if (head === '<' || /text\/html/i.test(type)) return { kind: 'missing', why: 'answered a web page, not JSON' };
      try {
        return { kind: 'json', body: JSON.parse(text) as unknown };
      } catch {
        return {
          kind: 'failed',
          why: `answered something that is not JSON: "${text.replace(/\s+/g, ' ').slice(0, 60)}"`,
        };
      }
    },
  };
}
