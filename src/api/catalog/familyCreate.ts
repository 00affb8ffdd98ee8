/**
 * Creating a task for a catalog family (../catalog): the request is checked against the family
 * first (nothing is sent with an error), local images become base64 only for families that take
 * base64 (a URL-only family refuses them with that reason: nothing is uploaded behind the user's
 * back), then it goes once, in the family's shape: new-api's unified JSON on `/v1/video/generations`
 * or OpenAI's multipart on `/v1/videos`. The caller reads local files (inside the workspace).
 */
import * as l10n from '@vscode/l10n';
import type { CatalogFamily } from './catalog';
import { isLocalImage, validateCatalogVideo, type CatalogVideoRequest } from './catalogRules';
import { videoWire } from './videoWire';
import { imageFormat, imageMime } from '../images/imageBytes';
import { GatewayError } from '../transport/errors';
import type { HttpClient } from '../transport/http';
import { videoIdFromCreation } from '../video/videoStatus';

/** Reads a local image the user named (the caller keeps it inside the workspace). */
export type ReadLocalImage = (path: string) => Promise<{ name: string; bytes: Uint8Array }>;

function refused(messages: string[]): GatewayError {
  return new GatewayError('validation', messages.join('\n'), { field: 'request' });
}

async function dataUrl(path: string, read: ReadLocalImage): Promise<string> {
  const { name, bytes } = await read(path);
  const format = imageFormat(bytes);
  if (!format) throw refused([l10n.t('{0} is not an image (PNG, JPEG, WebP or GIF).', name)]);
  return `data:${imageMime(format)};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** The request with each local image of a base64-taking slot replaced by its data URL. */
async function inlineLocal(
  f: CatalogFamily | undefined,
  r: CatalogVideoRequest,
  read: ReadLocalImage | undefined,
): Promise<CatalogVideoRequest> {
  if (f?.route === 'videos-multipart') return r;
  const inline = async (v: string | undefined) => {
    if (v === undefined || !isLocalImage(v)) return v;
    if (!read) throw refused([l10n.t('{0} is a local image and nothing can read it here; give an HTTPS link.', v)]);
    return dataUrl(v, read);
  };
  return {
    ...r,
    firstFrame: await inline(r.firstFrame),
    lastFrame: await inline(r.lastFrame),
    ...(r.references ? { references: await Promise.all(r.references.map(async (x) => (await inline(x))!)) } : {}),
  };
}

/** Creates the task; resolves with its id and the creation answer. Sent once (it is billed). */
export async function createFamilyVideo(
  http: HttpClient,
  f: CatalogFamily | undefined,
  r: CatalogVideoRequest,
  o: { readLocal?: ReadLocalImage; signal?: AbortSignal } = {},
): Promise<{ id: string; body: unknown }> {
  const checked = validateCatalogVideo(f, r);
  if (checked.errors.length) throw refused(checked.errors.map((e) => e.message));
  const wire = videoWire(f, await inlineLocal(f, r, o.readLocal));
  let res: Response;
  if (wire.path === '/video/generations') {
    res = await http.request('POST', wire.path, { body: wire.json, signal: o.signal, retry: false });
  } else {
    const form = new FormData();
    for (const [k, v] of Object.entries(wire.fields)) form.append(k, v);
    for (const [k, path] of Object.entries(wire.files)) {
      if (!isLocalImage(path))
        throw refused([l10n.t('{0} takes the reference image as a file; {1} is not one.', f!.name, path.slice(0, 80))]);
      if (!o.readLocal) throw refused([l10n.t('{0} is a local image and nothing can read it here.', path)]);
      const { name, bytes } = await o.readLocal(path);
      const format = imageFormat(bytes);
      if (!format) throw refused([l10n.t('{0} is not an image (PNG, JPEG, WebP or GIF).', name)]);
      form.append(k, new Blob([bytes], { type: imageMime(format) }), name);
    }
    res = await http.request('POST', wire.path, { form, signal: o.signal, retry: false });
  }
  const text = await http.text(res, { signal: o.signal });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new GatewayError(
      'invalid_response',
      l10n.t('The video creation answer was not JSON: "{0}"', text.slice(0, 120)),
    );
  }
  return { id: videoIdFromCreation(body), body };
}
