// When a failed request is sent again: the wait before each retry (the server's retry-after, else
// a doubling backoff with jitter) and a wait that a stop cuts short. The loop itself is in
// ./http, around one attempt.
import * as l10n from '@vscode/l10n';
import { GatewayError } from './errors';

/**
 * The wait before retry number `attempt` (0-based): `retry-after-ms`, else `retry-after` (seconds
 * or an HTTP date) when between 0 and 60 s, else 0.5 s doubling up to 8 s, minus up to 25% jitter.
 */
export function retryDelayMs(
  attempt: number,
  headers: Headers | undefined,
  random: () => number = Math.random,
): number {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const v = Number.parseFloat(ms);
    if (Number.isFinite(v) && v >= 0 && v <= 60_000) return v;
  }
  const ra = headers?.get('retry-after');
  if (ra) {
    let v = Number.parseFloat(ra) * 1000;
    if (!/^\s*\d+(\.\d+)?\s*$/.test(ra)) v = Date.parse(ra) - Date.now();
    if (Number.isFinite(v) && v >= 0 && v <= 60_000) return v;
  }
  const base = Math.min(0.5 * 2 ** attempt, 8) * 1000;
  return base * (1 - 0.25 * random());
}

/** The error of a request stopped through its signal. */
export function abortedError(method: string, path: string): GatewayError {
  return new GatewayError('aborted', l10n.t('{0} {1} was stopped.', method, path), { method, path });
}

/** Waits, or rejects with an `aborted` error as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError('', ''));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new GatewayError('aborted', l10n.t('Stopped while waiting to retry.')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
