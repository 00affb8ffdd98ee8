/** Server-sent events with the framing variants real relays produce (wire-quirks "SSE framing"). */
import type { ServerResponse } from 'node:http';
import type { FaultEffects } from './faults';
import { BodyWriter, faultHeaders, sleep } from './http';

/**
 * Writes `data:` events for a chat stream. Framing (`crlf`, `noSpace`, `eventNames`,
 * `keepAlive`), pacing (`chunkDelayMs`), `stallAfterChunks`, `midStreamError` and `malformedChunk` are applied
 * here so the chat logic only says what to send.
 */
export class SseWriter {
  private readonly body: BodyWriter;
  private readonly eol: string;
  private chunks = 0;
  private finished = false;
  private readonly startedAt = performance.now();

  constructor(
    private readonly res: ServerResponse,
    private readonly fx: FaultEffects,
    private readonly delayMs: number,
    /** Called with each chunk's object and its send time (ms since the epoch, sub-ms) when `stampChunks` is on. */
    private readonly onSend?: (obj: unknown, at: number) => void,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...faultHeaders(fx),
    });
    // Headers go out now, as real servers do before the first token.
    res.flushHeaders();
    this.body = new BodyWriter(res, fx);
    this.eol = fx.crlf ? '\r\n' : '\n';
  }

  /** False once the stream ended, stalled, was cut off or the client left. */
  get open(): boolean {
    return !this.finished && this.body.open;
  }

  /**
   * Send one JSON chunk. Returns false when the stream must not continue (stall, mid-stream
   * error, drop, client gone); the caller then stops without ending the stream itself.
   */
  async chunk(obj: unknown): Promise<boolean> {
    if (!this.open) return false;
    const mid = this.fx.midStreamError;
    if (mid && this.chunks >= mid.afterChunks) {
      await this.event(
        'error',
        JSON.stringify({
          error: {
            message: mid.message ?? 'upstream error in the middle of the stream',
            type: mid.type ?? 'server_error',
            code: mid.code ?? 'upstream_error',
            param: null,
          },
        }),
      );
      this.finished = true;
      this.body.end();
      return false;
    }
    if (this.fx.stallAfterChunks !== undefined && this.chunks >= this.fx.stallAfterChunks) {
      // Keep the connection open and silent; close() of the gateway destroys it.
      this.finished = true;
      if (this.fx.stallPingMs !== undefined && this.fx.stallPingMs > 0) this.pingWhileStalled(this.fx.stallPingMs);
      return false;
    }
    const rate = this.fx.chunksPerSecond;
    if (rate !== undefined && rate > 0) {
      // An absolute schedule: a timer that fires late does not slow the rest of the stream down.
      const wait = this.startedAt + (this.chunks * 1000) / rate - performance.now();
      if (wait >= 1) await sleep(Math.floor(wait));
    } else if (this.chunks > 0) {
      const pause = this.fx.chunkDelayMs ?? this.delayMs;
      if (pause > 0) await sleep(pause);
    }
    if (this.chunks > 0 && this.fx.keepAlive) await this.body.write(`: PING${this.eol}${this.eol}`);
    this.chunks += 1;
    const bad = this.fx.malformedChunk;
    if (bad && this.chunks === bad.afterChunks + 1) {
      // A garbled line in the middle: JSON cut off halfway, then the stream carries on.
      if (!(await this.event('message', '{"choices":[{"index":0,"delta":{"content":"garb'))) return false;
    }
    if (this.fx.stampChunks) this.onSend?.(obj, performance.timeOrigin + performance.now());
    return this.event('message', JSON.stringify(obj));
  }

  /** Send `data: [DONE]` and end the response. */
  async done(): Promise<void> {
    if (!this.open) return;
    if (this.fx.keepAlive) await this.body.write(`: PING${this.eol}${this.eol}`);
    if (await this.event('message', '[DONE]')) {
      this.finished = true;
      this.body.end();
    }
  }

  private pingWhileStalled(every: number): void {
    const timer = setInterval(() => {
      if (!this.body.open) {
        clearInterval(timer);
        return;
      }
      void this.body.write(`: PING${this.eol}${this.eol}`);
    }, every);
    timer.unref();
    this.res.once('close', () => clearInterval(timer));
  }

  private event(kind: 'message' | 'error', data: string): Promise<boolean> {
    const name = this.fx.eventNames ? `event: ${kind}${this.eol}` : '';
    const sep = this.fx.noSpace ? '' : ' ';
    return this.body.write(`${name}data:${sep}${data}${this.eol}${this.eol}`);
  }
}
