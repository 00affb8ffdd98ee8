import { createParser, type EventSourceMessage } from 'eventsource-parser';

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

/** Wraps a whole string or byte array as a one-shot byte stream (tests, benchmarks, recordings). */
export async function* bytesOf(...parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
}
