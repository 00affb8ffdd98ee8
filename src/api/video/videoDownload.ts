// The download half of the video client: streams a task's video into a sink it is given (the job
// saves into a file: video/jobs/core/saveDownload.ts), checks that it is one, resumes a dropped
// connection with Range, and has the sink keep it. Which URL to download is chosen by
// `VideoClient.download` in ./video. Nothing here knows about the disk.
import * as l10n from '@vscode/l10n';
import { GatewayError, isGatewayError } from '../transport/errors';
import { Writable } from 'node:stream';
import type { HttpClient } from '../transport/http';
import { MAX_RESUMES, bodyMeta, resumeFrom, type BodyMeta } from '../transport/rangeResume';
import { looksLikeVideo } from './videoStatus';
import { pipeBody, type WireResponse } from '../transport/wireGet';

export interface VideoDownloadOptions {
  signal?: AbortSignal;
  onProgress?: (received: number, total: number | undefined) => void;
  /**
   * The task's id, when the source passed to `download` is the result URL its status gave. The
   * spec's content route for this id is then downloaded first, with the key (spec 4 rules 2, 6);
   * the result URL only when that route answered 404, 400, a 5xx or something other than a video.
   */
  videoId?: string;
}

/** The writable end of one pass over the body: where its bytes go, from a given position on. */
export interface SinkWriter extends Writable {
  /** The end of what is kept; after `settled()`, how far the video is written. */
  readonly position: number;
  /** Resolves when no write is running (before the end is read or the sink kept). */
  settled(): Promise<void>;
}

/** What a writer tells its download: each chunk before it is kept, and the new end after each write. */
export interface SinkHooks {
  /** Sees every chunk before it is kept; what it throws fails the writer (not a video, too large). */
  check: (chunk: Uint8Array) => void;
  onWritten: (position: number) => void;
}

/**
 * Where one download's bytes go. `open` is called before the request and `dispose` always last;
 * in between, a `writer` per pass over the body (a resumed pass continues at the end written, a
 * restarted one at 0), and `keep` once the whole video arrived.
 */
export interface VideoSink {
  /** Makes the sink ready; its failure is reported after the answer's headers (see fetchVideo). */
  open(): Promise<void>;
  writer(position: number, hooks: SinkHooks): SinkWriter;
  /** Keeps the first `bytes` written as the video; resolves with where it now is (a file's path). */
  keep(bytes: number): Promise<string>;
  /** Drops what was written unless it was kept. */
  dispose(): Promise<void>;
}

/**
 * Makes the sink of one download from `shown`, the path the bytes come from (for the sink's own
 * messages). `VideoClient.download` may make two: the content route's, then the result URL's.
 */
export type VideoSinkFactory = (shown: string) => VideoSink;

/** Bytes of a non-video body kept for the error message. */
const SNIPPET_BYTES = 2048;

/** The `Accept` of a download request. */
const ACCEPT = 'video/mp4, video/*, application/octet-stream';

/**
 * Streams a video's content (with the key, spec 4 rule 6) into a sink made by `sinkFor`, then has
 * the sink keep it. Memory stays flat whatever the size. A JSON or text body is the spec's "wrong
 * path or missing key" (rule 5); fewer bytes than Content-Length, or a connection dropped
 * mid-body, is `truncated`; bytes that do not start like an MP4 or WebM file are `not_video`. A
 * connection that drops mid-body is resumed with `Range` when the server said `Accept-Ranges:
 * bytes` (../transport/rangeResume). The sink is disposed of on failure.
 */
export async function fetchVideo(
  http: HttpClient,
  url: string,
  sinkFor: VideoSinkFactory,
  o: VideoDownloadOptions,
): Promise<{ file: string; bytes: number }> {
  const shown = new URL(url).pathname;
  const sink = sinkFor(shown);
  // The sink is opened before the request: between the answer's headers and the pipe into the
  // file there must be no disk wait, in which a body that arrived whole and was cut (its bytes in
  // the response's buffer) would go with the connection. Assuming the open would finish during the
  // request lost those bytes on a loaded machine ("stopped after 0 of 100000 bytes" where 40,000
  // had arrived). A failed open is reported only after the answer, so an HTTP error still comes
  // first, as when the file was opened after the headers.
  const opening = sink.open().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  const transfer = new Transfer(http, url, shown, o);
  try {
    const opened = await opening;
    await transfer.start();
    if (opened) throw opened.error;
    const written = await transfer.into(sink);
    return { file: await sink.keep(written), bytes: written };
  } finally {
    transfer.close();
    await opening;
    await sink.dispose();
  }
}

/** One download's answers and what they brought so far: the first bytes checked, the count, the facts. */
class Transfer {
  private res: WireResponse | undefined;
  private meta: BodyMeta = { total: undefined, ranges: false, validator: undefined };
  private written = 0;
  private head: Uint8Array = new Uint8Array(0);
  private checked = false;
  private readonly gatewayOrigin: string;

  constructor(
    private readonly http: HttpClient,
    private readonly url: string,
    private readonly shown: string,
    private readonly o: VideoDownloadOptions,
  ) {
    this.gatewayOrigin = new URL(http.baseUrl).origin;
  }

  /** A GET of the video: storage links commonly redirect to a signed URL; each hop is checked
   * (redirects.ts), and a resumed request goes the same way again, so the key rule holds hop by hop. */
  private get = (headers?: Record<string, string>): Promise<WireResponse> =>
    this.http.download(this.url, { signal: this.o.signal, accept: ACCEPT, followRedirects: true, headers });

  /** Only the gateway's own words are quoted: another host's text would reach the model verbatim. */
  private quotable(answered: string): boolean {
    return new URL(answered).origin === this.gatewayOrigin;
  }

  /** Asks for the video; refuses an answer that is no video or too large before any byte is kept. */
  async start(): Promise<void> {
    this.res = await this.get();
    await this.readFull(this.res);
  }

  private async readFull(res: WireResponse): Promise<void> {
    this.meta = await videoBody(res, this.shown, this.http.idleTimeoutMs, this.o.signal, this.quotable(res.url));
    checkSize(this.meta.total, this.http.maxDownloadBytes, this.shown);
  }

  /** Pipes the body into `sink`, resuming after drops; resolves with the bytes of the whole video. */
  async into(sink: VideoSink): Promise<number> {
    for (let resumes = 0; ;) {
      const dropped = await this.pass(sink);
      if (!dropped) break;
      if (!this.meta.ranges || this.written === 0 || resumes >= MAX_RESUMES)
        throw truncated(this.shown, this.written, this.meta.total, dropped);
      resumes++;
      await this.resume(resumes);
    }
    const res = this.res!;
    if (!this.checked && !looksLikeVideo(this.head))
      throw notVideo(this.shown, new TextDecoder().decode(this.head), this.quotable(res.url));
    if (this.meta.total !== undefined && this.written !== this.meta.total)
      throw truncated(this.shown, this.written, this.meta.total);
    return this.written;
  }

  /** One pass over the current answer's body; resolves with the network error that cut it, if one did. */
  private async pass(sink: VideoSink): Promise<GatewayError | undefined> {
    let arrived = this.written;
    const writer = sink.writer(this.written, {
      check: (chunk) => {
        this.checkHead(chunk);
        // A server that announced less (or nothing) is stopped at the limit all the same.
        arrived += chunk.byteLength;
        checkSize(arrived, this.http.maxDownloadBytes, this.shown);
      },
      onWritten: (at) => this.o.onProgress?.(at, this.meta.total),
    });
    try {
      await pipeBody(this.res!, writer, { idleMs: this.http.idleTimeoutMs, path: this.shown, signal: this.o.signal });
      return undefined;
    } catch (err) {
      if (!isGatewayError(err, 'network')) throw err;
      return err;
    } finally {
      await writer.settled();
      this.written = writer.position;
    }
  }

  private async resume(resumes: number): Promise<void> {
    const { http, shown, written } = this;
    http.log(
      'info',
      `GET ${shown}: the connection dropped after ${written} of ${this.meta.total} bytes; resume ${resumes}`,
    );
    const next = await resumeFrom(this.get, { written, meta: this.meta, shown, log: (m) => http.log('info', m) });
    this.res = next.res;
    if (next.from !== 0) return;
    // The server sent the whole video again: it replaces what was written.
    await this.readFull(next.res);
    this.written = 0;
    this.head = new Uint8Array(0);
    this.checked = false;
  }

  private checkHead(chunk: Uint8Array): void {
    if (this.checked) return;
    this.head = concat(this.head, chunk.subarray(0, 16));
    if (this.head.length < 12) return;
    this.checked = true;
    if (!looksLikeVideo(this.head))
      throw notVideo(
        this.shown,
        new TextDecoder().decode(chunk.subarray(0, SNIPPET_BYTES)),
        this.res !== undefined && this.quotable(this.res.url),
      );
  }

  close(): void {
    this.res?.body.destroy();
  }
}

/** A full (200) answer's facts, or `not_video` when it is JSON or text (quoted if `quote`). */
async function videoBody(
  res: WireResponse,
  shown: string,
  idleMs: number,
  signal: AbortSignal | undefined,
  quote: boolean,
): Promise<BodyMeta> {
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (/json|^text\//.test(type))
    throw notVideo(shown, quote ? await readSnippet(res, shown, idleMs, signal) : '', quote);
  return bodyMeta(res);
}

async function readSnippet(res: WireResponse, shown: string, idleMs: number, signal?: AbortSignal): Promise<string> {
  const parts: Buffer[] = [];
  let n = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      parts.push(chunk);
      n += chunk.length;
      // Enough for the message: the rest is not read.
      cb(n >= SNIPPET_BYTES ? new Error('enough') : null);
    },
  });
  await pipeBody(res, sink, { idleMs, path: shown, signal }).catch((e: unknown) => {
    if (n < SNIPPET_BYTES) throw e;
  });
  return new TextDecoder().decode(Buffer.concat(parts)).slice(0, SNIPPET_BYTES);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function notVideo(p: string, body: string, quoted: boolean): GatewayError {
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  const what = !quoted
    ? l10n.t('a text from another host (not shown)')
    : snippet
      ? `"${snippet}"`
      : l10n.t('an empty body');
  return new GatewayError(
    'not_video',
    l10n.t(
      '{0} answered {1} instead of a video. Per the service spec this means the wrong path was called or the API key header was missing (or the task is not finished yet).',
      p,
      what,
    ),
    { path: p, advice: 'checkVideoAddress' },
  );
}

/**
 * Refuses a video past `gatewayStudio.video.maxDownloadMegabytes`: nothing of it is saved (the
 * sink is disposed of), and the task keeps its record and id, so a raised limit and a resume fetch it.
 */
function checkSize(bytes: number | undefined, max: number, p: string): void {
  if (bytes === undefined || bytes <= max) return;
  throw new GatewayError(
    'config',
    l10n.t(
      'The video at {0} is larger than {1} MB, the limit set by gatewayStudio.video.maxDownloadMegabytes, so it was not saved. The task is kept: raise the limit and resume it to download the video.',
      p,
      Math.round((max / 1024 / 1024) * 100) / 100,
    ),
    { path: p, field: 'gatewayStudio.video.maxDownloadMegabytes', advice: 'raiseSizeLimit' },
  );
}

function truncated(p: string, received: number, total: number | undefined, cause?: unknown): GatewayError {
  const msg =
    total === undefined
      ? l10n.t('The download of {0} stopped after {1} bytes.', p, received)
      : l10n.t('The download of {0} stopped after {1} of {2} bytes.', p, received, total);
  return new GatewayError('truncated', msg, {
    path: p,
    retryable: true,
    cause,
    advice: 'proxyCutDownload',
  });
}
