/**
 * Fetching an answer's image link: the link is checked first (http(s) only, never a literal
 * address in the user's network unless the gateway is there: ../transport/redirects), the GET goes
 * through the client's download path (its lookup refuses a name that resolves into the user's
 * network, each redirect is checked, the key goes only to the gateway's origin), and the body
 * streams into a sink the caller makes: memory stays flat whatever the size. The first bytes must
 * be an image (./imageBytes) and the whole within the limit, or nothing is kept.
 */
import * as l10n from '@vscode/l10n';
import type { Writable } from 'node:stream';
import { GatewayError } from '../transport/errors';
import type { HttpClient } from '../transport/http';
import { checkServerGivenUrl } from '../transport/redirects';
import { pipeBody } from '../transport/wireGet';
import { MAGIC_BYTES, imageFormat, type ImageFormat } from './imageBytes';

/** The largest image kept or sent unless the caller says otherwise (OpenAI's limit per input image). */
export const DEFAULT_MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** What a download writes into: the writable end (its `check` sees every chunk first), then keep or drop. */
export interface ImageSink {
  writable(check: (chunk: Uint8Array) => void): Writable & { readonly failure?: unknown };
  /** Keeps the bytes as an image of `format`; resolves with where it now is. */
  keep(format: ImageFormat, bytes: number): Promise<string>;
  /** Drops what was written unless it was kept. */
  dispose(): Promise<void>;
}

export interface ImageFetchOptions {
  signal?: AbortSignal;
  maxBytes?: number;
}

/** The absolute URL of an answer's image link, or the reason it is not fetched. */
export function imageLink(location: string, baseUrl: string): URL {
  const s = location.trim();
  let u: URL;
  try {
    u = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) ? new URL(s) : new URL(s, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  } catch {
    throw new GatewayError('invalid_response', l10n.t('The image link "{0}" is not a valid address.', s.slice(0, 200)));
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new GatewayError(
      'invalid_response',
      l10n.t('The image link uses {0}; only http(s) links are downloaded.', u.protocol),
    );
  checkServerGivenUrl(u, baseUrl);
  return u;
}

export function tooLarge(what: string, max: number): GatewayError {
  return new GatewayError(
    'config',
    l10n.t(
      '{0} is larger than {1} MB, the image limit, so it was not used.',
      what,
      Math.round((max / 1048576) * 10) / 10,
    ),
    { advice: 'raiseSizeLimit' },
  );
}

export function notAnImage(what: string): GatewayError {
  return new GatewayError(
    'invalid_response',
    l10n.t('{0} is not an image (its first bytes are no PNG, JPEG, WebP or GIF), so it was not kept.', what),
  );
}

/** Streams the image at `location` into `sink` and keeps it; resolves with where and how big. */
export async function fetchImage(
  http: HttpClient,
  location: string,
  sink: ImageSink,
  o: ImageFetchOptions = {},
): Promise<{ file: string; bytes: number; format: ImageFormat }> {
  const max = o.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  try {
    const url = imageLink(location, http.baseUrl);
    const shown = `${url.host}${url.pathname}`;
    const res = await http.download(url.toString(), {
      signal: o.signal,
      accept: 'image/png, image/jpeg, image/webp, image/*',
      followRedirects: true,
    });
    try {
      const type = (res.headers.get('content-type') ?? '').toLowerCase();
      if (/json|^text\//.test(type)) throw notAnImage(l10n.t('The answer of {0} ({1})', shown, type));
      const total = Number(res.headers.get('content-length') ?? NaN);
      if (Number.isFinite(total) && total > max) throw tooLarge(l10n.t('The image at {0}', shown), max);
      let head = new Uint8Array(0);
      let format: ImageFormat | undefined;
      let bytes = 0;
      const writable = sink.writable((chunk) => {
        bytes += chunk.byteLength;
        if (bytes > max) throw tooLarge(l10n.t('The image at {0}', shown), max);
        if (format !== undefined) return;
        head = Buffer.concat([head, chunk.subarray(0, MAGIC_BYTES)]).subarray(0, MAGIC_BYTES);
        if (head.length < MAGIC_BYTES) return;
        format = imageFormat(head);
        if (!format) throw notAnImage(l10n.t('The file at {0}', shown));
      });
      await pipeBody(res, writable, { idleMs: http.idleTimeoutMs, path: url.pathname, signal: o.signal });
      format ??= imageFormat(head);
      if (!format) throw notAnImage(l10n.t('The file at {0}', shown));
      return { file: await sink.keep(format, bytes), bytes, format };
    } finally {
      res.body.destroy();
    }
  } finally {
    await sink.dispose();
  }
}
