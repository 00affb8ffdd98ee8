// A response body read under the idle watchdog: the one timeout of a streamed answer. The header
// deadline and the retries are the request's (./http); this starts once a 2xx response is in hand.
import * as l10n from '@vscode/l10n';
import { describeNetworkError } from './connectFailure';
import { GatewayError } from './errors';
import { abortedError } from './retry';

/** The request a body belongs to: aborting `ctrl` ends the connection; `unlink` drops the user's signal. */
export interface RequestLink {
  ctrl: AbortController;
  unlink: () => void;
}

/**
 * Yields a response body's chunks with the idle watchdog: when no byte (not even a keep-alive)
 * arrives for `idleMs`, the request is aborted and a `timeout` error thrown. A dropped connection
 * becomes a `network` error, a stop through the signal an `aborted` error.
 */
export async function* idleBody(
  res: Response,
  link: RequestLink | undefined,
  o: { idleMs: number; path: string; signal?: AbortSignal; maxBytes?: number },
): AsyncGenerator<Uint8Array> {
  const { idleMs, path } = o;
  if (!res.body) return;
  const reader = res.body.getReader();
  // One re-arming timer per stream rather than a timer and a promise race per read: streams
  // arrive in thousands of small reads and the per-read cost dominated parsing.
  let last = Date.now();
  let timedOut = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      const quiet = Date.now() - last;
      if (quiet < idleMs) return arm(idleMs - quiet);
      timedOut = true;
      reader.cancel().catch(() => undefined);
      link?.ctrl.abort();
    }, ms);
  };
  const onAbort = () => {
    stopped = true;
    reader.cancel().catch(() => undefined);
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  arm(idleMs);
  let received = 0;
  try {
    for (;;) {
      if (o.signal?.aborted) stopped = true;
      if (stopped) throw abortedError('GET', path);
      last = Date.now();
      let r: Awaited<ReturnType<typeof reader.read>>;
      try {
        r = await reader.read();
      } catch (e) {
        if (timedOut) throw idleError(idleMs, path);
        if (stopped || o.signal?.aborted || link?.ctrl.signal.aborted) throw abortedError('GET', path);
        throw new GatewayError(
          'network',
          l10n.t('The connection closed while receiving {0}: {1}', path, describeNetworkError(e)),
          { cause: e, path },
        );
      }
      if (timedOut) throw idleError(idleMs, path);
      if (stopped || o.signal?.aborted) throw abortedError('GET', path);
      if (r.done) return;
      received += r.value.byteLength;
      // Past the limit the rest is dropped (the finally ends the connection); what came before
      // is the caller's partial answer.
      if (o.maxBytes !== undefined && received > o.maxBytes) throw answerTooLarge(path, o.maxBytes);
      if (r.value.byteLength > 0) yield r.value;
    }
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    link?.unlink();
    link?.ctrl.abort();
    reader.releaseLock();
  }
}

/** The error of a body past `gatewayStudio.chat.maxAnswerMegabytes`. */
function answerTooLarge(path: string, max: number): GatewayError {
  return new GatewayError(
    'truncated',
    l10n.t(
      'The answer from {0} passed {1} MB, the limit set by gatewayStudio.chat.maxAnswerMegabytes; it was stopped there and what arrived before is kept.',
      path,
      Math.round((max / 1024 / 1024) * 100) / 100,
    ),
    { path, field: 'gatewayStudio.chat.maxAnswerMegabytes', advice: 'raiseSizeLimit' },
  );
}

function idleError(idleMs: number, path: string): GatewayError {
  return new GatewayError(
    'timeout',
    l10n.t('The gateway sent nothing for {0} s while streaming {1}.', Math.round(idleMs / 1000), path),
    { path, advice: 'raiseIdleTimeout' },
  );
}
