// The download half of the video client: streams a task's video into a file beside its target,
// checks that it is one, and links it into place. Which URL to download is chosen by
// `VideoClient.download` in ./video.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { GatewayError, isGatewayError } from './errors';
import type { HttpClient } from './http';
import { looksLikeVideo } from './videoStatus';
import { WriteBehind } from './writeBehind';

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

/** `.<name>.<8 hex>.part`: a download into `<dir>/<name>` writes here first, beside the target. */
export function partFileName(destName: string): string {
  return `.${destName}.${randomBytes(4).toString('hex')}.part`;
}

/**
 * The destination name a temporary download file was made for (see {@link partFileName}), or
 * undefined when `fileName` is not such a file. Cleanup matches on this, never on a looser pattern.
 */
export function partFileTarget(fileName: string): string | undefined {
  return /^\.(.+)\.[0-9a-f]{8}\.part$/.exec(fileName)?.[1];
}

/**
 * Streams a video's content (with the key, spec 4 rule 6) into a temporary file beside `destFile`, then
 * links it into place without overwriting (an existing `destFile` fails with `EEXIST`). Memory
 * stays flat whatever the size. A JSON or text body is the spec's "wrong path or missing key"
 * (rule 5); fewer bytes than Content-Length, or a connection dropped mid-body, is `truncated`;
 * bytes that do not start like an MP4 or WebM file are `not_video`. Nothing is left behind on
 * failure.
 */
export async function fetchVideo(
  http: HttpClient,
  url: string,
  destFile: string,
  o: VideoDownloadOptions,
): Promise<{ file: string; bytes: number }> {
  const shown = new URL(url).pathname;
  const res = await http.request('GET', url, {
    signal: o.signal,
    accept: 'video/mp4, video/*, application/octet-stream',
    // Storage links commonly redirect to a signed URL; each hop is checked (redirects.ts).
    followRedirects: true,
  });
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;

  if (/json|^text\//.test(type)) {
    const text = await readSnippet(http, res, o.signal);
    throw notVideo(shown, text);
  }

  const temp = path.join(path.dirname(destFile), partFileName(path.basename(destFile)));
  const fh = await fs.open(temp, 'wx');
  let received = 0;
  let closed = false;
  const writer = new WriteBehind(fh);
  try {
    let head: Uint8Array = new Uint8Array(0);
    let checked = false;
    try {
      for await (const chunk of http.body(res, { signal: o.signal })) {
        if (!checked) {
          head = concat(head, chunk.subarray(0, 16));
          if (head.length >= 12) {
            checked = true;
            if (!looksLikeVideo(head))
              throw notVideo(shown, new TextDecoder().decode(chunk.subarray(0, SNIPPET_BYTES)));
          }
        }
        await writer.write(chunk);
        received += chunk.byteLength;
        o.onProgress?.(received, total);
      }
    } catch (err) {
      if (isGatewayError(err, 'network')) throw truncated(shown, received, total, err);
      throw err;
    }
    if (!checked && !looksLikeVideo(head)) throw notVideo(shown, new TextDecoder().decode(head));
    if (total !== undefined && received !== total) throw truncated(shown, received, total);
    await writer.drain();
    await fh.sync();
    await fh.close();
    closed = true;
    // link() refuses an existing target, unlike rename(): a file the user has is never replaced.
    try {
      await fs.link(temp, destFile);
    } catch (err) {
      // The open handle kept writing into a file someone removed meanwhile (a sweep, a user
      // tidying the folder): the bytes are gone with it, so this is a download to do again.
      if (errnoCode(err) === 'ENOENT') throw partFileGone(shown, path.basename(temp), received, err);
      throw err;
    }
    await fs.unlink(temp).catch(() => undefined);
    return { file: destFile, bytes: received };
  } finally {
    await writer.settled();
    if (!closed) await fh.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
  }
}

async function readSnippet(http: HttpClient, res: Response, signal?: AbortSignal): Promise<string> {
  const dec = new TextDecoder();
  let out = '';
  for await (const chunk of http.body(res, { signal })) {
    out += dec.decode(chunk, { stream: true });
    if (out.length >= SNIPPET_BYTES) break;
  }
  return out.slice(0, SNIPPET_BYTES);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function notVideo(p: string, body: string): GatewayError {
  const snippet = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new GatewayError(
    'not_video',
    l10n.t(
      '{0} answered {1} instead of a video. Per the service spec this means the wrong path was called or the API key header was missing (or the task is not finished yet).',
      p,
      snippet ? `"${snippet}"` : l10n.t('an empty body'),
    ),
    { path: p, advice: 'checkVideoAddress' },
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
