// The download half of the video client: streams a task's video into a file beside its target,
// checks that it is one, and links it into place. Which URL to download is chosen by
// `VideoClient.download` in ./video.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { GatewayError, isGatewayError } from '../transport/errors';
import { Writable } from 'node:stream';
import type { HttpClient } from '../transport/http';
import { MAX_RESUMES, bodyMeta, resumeFrom, type BodyMeta } from '../transport/rangeResume';
import { looksLikeVideo } from './videoStatus';
import { partFileName } from '../../files/partFileNames';
import { pipeBody, type WireResponse } from '../transport/wireGet';
import { WriteBehind } from '../../files/writeBehind';

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

/** Bytes of a non-video body kept for the error message. */
const SNIPPET_BYTES = 2048;

/** The `Accept` of a download request. */
const ACCEPT = 'video/mp4, video/*, application/octet-stream';

/**
 * Streams a video's content (with the key, spec 4 rule 6) into a temporary file beside `destFile`, then
 * links it into place without overwriting (an existing `destFile` fails with `EEXIST`). Memory
 * stays flat whatever the size. A JSON or text body is the spec's "wrong path or missing key"
 * (rule 5); fewer bytes than Content-Length, or a connection dropped mid-body, is `truncated`;
 * bytes that do not start like an MP4 or WebM file are `not_video`. A connection that drops
 * mid-body is resumed with `Range` when the server said `Accept-Ranges: bytes` (./rangeResume).
 * Nothing is left behind on failure.
 */
export async function fetchVideo(
  http: HttpClient,
  url: string,
  destFile: string,
  o: VideoDownloadOptions,
): Promise<{ file: string; bytes: number }> {
  const shown = new URL(url).pathname;
  const gatewayOrigin = new URL(http.baseUrl).origin;
  const get = (headers?: Record<string, string>) =>
    // Storage links commonly redirect to a signed URL; each hop is checked (redirects.ts), and a
    // resumed request goes the same way again, so the key rule holds hop by hop.
    http.download(url, { signal: o.signal, accept: ACCEPT, followRedirects: true, headers });
  // The file is opened before the request: between the answer's headers and the pipe into the
  // file there must be no disk wait, in which a body that arrived whole and was cut (its bytes in
  // the response's buffer) would go with the connection. Assuming the open would finish during the
  // request lost those bytes on a loaded machine ("stopped after 0 of 100000 bytes" where 40,000
  // had arrived). A failed open is reported only after the answer, so an HTTP error still comes
  // first, as when the file was opened after the headers.
  const temp = path.join(path.dirname(destFile), partFileName(path.basename(destFile)));
  const opening = fs.open(temp, 'wx').then(
    (handle) => ({ handle }),
    (error: unknown) => ({ error }),
  );
  let fh: fs.FileHandle | undefined;
  let res: WireResponse | undefined;
  let meta: BodyMeta = { total: undefined, ranges: false, validator: undefined };
  let written = 0;
  let closed = false;
  let head: Uint8Array = new Uint8Array(0);
  let checked = false;
  // Only the gateway's own words are quoted: another host's text would reach the model verbatim.
  const quotable = (answered: string) => new URL(answered).origin === gatewayOrigin;
  const checkHead = (chunk: Uint8Array) => {
    if (checked) return;
    head = concat(head, chunk.subarray(0, 16));
    if (head.length < 12) return;
    checked = true;
    if (!looksLikeVideo(head))
      throw notVideo(
        shown,
        new TextDecoder().decode(chunk.subarray(0, SNIPPET_BYTES)),
        res !== undefined && quotable(res.url),
      );
  };
  try {
    const opened = await opening;
    res = await get();
    meta = await videoBody(res, shown, http.idleTimeoutMs, o.signal, quotable(res.url));
    checkSize(meta.total, http.maxDownloadBytes, shown);
    if ('error' in opened) throw opened.error;
    fh = opened.handle;
    for (let resumes = 0; ;) {
      let arrived = written;
      const sink = new WriteBehind(fh, {
        position: written,
        check: (chunk) => {
          checkHead(chunk);
          // A server that announced less (or nothing) is stopped at the limit all the same.
          arrived += chunk.byteLength;
          checkSize(arrived, http.maxDownloadBytes, shown);
        },
        onWritten: (at) => o.onProgress?.(at, meta.total),
      });
      try {
        await pipeBody(res, sink, { idleMs: http.idleTimeoutMs, path: shown, signal: o.signal });
        await sink.settled();
        written = sink.position;
        break;
      } catch (err) {
        await sink.settled();
        written = sink.position;
        if (!isGatewayError(err, 'network')) throw err;
        if (!meta.ranges || written === 0 || resumes >= MAX_RESUMES) throw truncated(shown, written, meta.total, err);
      }
      resumes++;
      http.log(
        'info',
        `GET ${shown}: the connection dropped after ${written} of ${meta.total} bytes; resume ${resumes}`,
      );
      const next = await resumeFrom(get, { written, meta, shown, log: (m) => http.log('info', m) });
      res = next.res;
      if (next.from === 0) {
        // The server sent the whole video again: it replaces what was written.
        meta = await videoBody(res, shown, http.idleTimeoutMs, o.signal, quotable(res.url));
        checkSize(meta.total, http.maxDownloadBytes, shown);
        written = 0;
        head = new Uint8Array(0);
        checked = false;
      }
    }
    if (!checked && !looksLikeVideo(head)) throw notVideo(shown, new TextDecoder().decode(head), quotable(res.url));
    if (meta.total !== undefined && written !== meta.total) throw truncated(shown, written, meta.total);
    // After a restart the file may be longer than the video written over its start.
    await fh.truncate(written);
    await fh.sync();
    await fh.close();
    closed = true;
    // link() refuses an existing target, unlike rename(): a file the user has is never replaced.
    try {
      await fs.link(temp, destFile);
    } catch (err) {
      // The open handle kept writing into a file someone removed meanwhile (a sweep, a user
      // tidying the folder): the bytes are gone with it, so this is a download to do again.
      if (errnoCode(err) === 'ENOENT') throw partFileGone(shown, path.basename(temp), written, err);
      throw err;
    }
    await fs.unlink(temp).catch(() => undefined);
    return { file: destFile, bytes: written };
  } finally {
    res?.body.destroy();
    const opened = await opening;
    // Only a file this download made is removed.
    if ('handle' in opened) {
      if (!closed) await opened.handle.close().catch(() => undefined);
      await fs.unlink(temp).catch(() => undefined);
    }
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
 * temporary file goes), and the task keeps its record and id, so a raised limit and a resume fetch it.
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

function errnoCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** The temporary file vanished before it could be linked into place: retryable, like a cut transfer. */
function partFileGone(p: string, partName: string, received: number, cause: unknown): GatewayError {
  return new GatewayError(
    'truncated',
    l10n.t(
      'The download of {0} was interrupted: its temporary file {1} was removed (by another window or program) after {2} bytes, before the video could be saved.',
      p,
      partName,
      received,
    ),
    {
      path: p,
      retryable: true,
      cause,
      advice: 'resumeDownload',
    },
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
