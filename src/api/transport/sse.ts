import * as l10n from '@vscode/l10n';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { GatewayError } from './errors';

/** One server-sent event: `event` is only kept when it is `error` (relays add `event: message`). */
export interface SseEvent {
  data: string;
  event?: 'error';
}

/**
 * Splits a byte stream into server-sent events. eventsource-parser handles `\n`, `\r\n` and `\r`
 * (also when a CR/LF pair is split across reads), multi-line `data:`, `data:` without a space and
 * comment keep-alives. An event still pending when the bytes end is flushed, because some servers
 * omit the final blank line.
 */
export async function* parseSse(
  bytes: AsyncIterable<Uint8Array>,
  onComment?: (text: string) => void,
): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e: EventSourceMessage) => {
      queue.push(e.event === 'error' ? { data: e.data, event: 'error' } : { data: e.data });
    },
    onComment,
  });
  const decoder = new TextDecoder();
  for await (const chunk of bytes) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (queue.length > 0) {
      // Drain in place; a fresh array per read would churn the GC on multi-MB streams.
      for (let i = 0; i < queue.length; i++) yield queue[i]!;
      queue.length = 0;
    }
  }
  const tail = decoder.decode();
  if (tail) parser.feed(tail);
  // A blank line dispatches an event left without one; after a complete stream it is a no-op.
  parser.feed('\n\n');
  for (const e of queue) yield e;
}

/** The end marker of a JSON event stream (`data: [DONE]`), yielded once before it stops. */
export const DONE = Symbol('[DONE]');

/** One event of a JSON event stream; `error` when the relay sent it as `event: error`. */
export interface JsonEvent {
  json: unknown;
  error: boolean;
}

/**
 * The JSON events of a chat-completions or Responses stream, the one reading both share: blank
 * events are skipped, `[DONE]` yields DONE and ends it, a line that is not JSON is passed to
 * `skipped` and left out (relays interleave garbage), except under `event: error`, where the text
 * is the error itself and ends the stream with it.
 */
export async function* parseJsonEvents(
  bytes: AsyncIterable<Uint8Array>,
  skipped: (data: string) => void,
): AsyncGenerator<JsonEvent | typeof DONE> {
  for await (const ev of parseSse(bytes)) {
    const data = ev.data.trim();
    if (data === '[DONE]') {
      yield DONE;
      return;
    }
    if (data === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      if (ev.event === 'error')
        throw new GatewayError('stream', l10n.t('The gateway reported an error mid-stream: {0}', data.slice(0, 300)));
      skipped(data.slice(0, 120));
      continue;
    }
    yield { json, error: ev.event === 'error' };
  }
}

/** Wraps a whole string or byte array as a one-shot byte stream (tests, benchmarks, recordings). */
export async function* bytesOf(...parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
}
