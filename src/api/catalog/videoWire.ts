/**
 * How a checked video request goes on the wire for its family (./catalog): new-api's unified
 * `POST /v1/video/generations` (top-level `model`, `prompt`, `duration`, `size`, `mode`, `image`,
 * `images`, `input_reference`, and everything vendor-specific under `metadata`), or OpenAI's
 * multipart `POST /v1/videos` (form fields, the reference image as the `input_reference` file part).
 * Pure: the caller has validated the request (./catalogRules) and reads local files itself.
 */
import type { CatalogFamily, ImageSlot } from './catalog';
import type { CatalogVideoRequest } from './catalogRules';

export type WireBody = Record<string, unknown>;

/** A JSON request or the text fields and file parts of a multipart one. */
export type VideoWire =
  | { readonly path: '/video/generations'; readonly json: WireBody }
  | {
      readonly path: '/videos';
      readonly fields: Readonly<Record<string, string>>;
      /** Form field name -> the local path (or data URL) the caller sends as a file part. */
      readonly files: Readonly<Record<string, string>>;
    };

/** Sets `value` at a dotted path (`metadata.aspect_ratio`), making the objects on the way. */
export function setPath(body: WireBody, path: string, value: unknown): void {
  const parts = path.split('.');
  let at: WireBody = body;
  for (const p of parts.slice(0, -1)) {
    const next = at[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[p] = {};
    at = at[p] as WireBody;
  }
  at[parts[parts.length - 1]!] = value;
}

function getPath(body: WireBody, path: string): unknown {
  let at: unknown = body;
  for (const p of path.split('.')) at = typeof at === 'object' && at !== null ? (at as WireBody)[p] : undefined;
  return at;
}

/**
 * Puts one image into its slot: a role slot appends a content item (`{ type: "image_url",
 * image_url: { url }, role }`), a list field (`images`) appends, any other field is set.
 */
function putImage(body: WireBody, slot: ImageSlot, url: string): void {
  if (slot.role !== undefined) {
    const list = (getPath(body, slot.field) as unknown[] | undefined) ?? [];
    setPath(body, slot.field, [...list, { type: 'image_url', image_url: { url }, role: slot.role }]);
  } else if (slot.field === 'images') {
    const list = (body.images as unknown[] | undefined) ?? [];
    body.images = [...list, url];
  } else setPath(body, slot.field, url);
}

/** The unified JSON body of `r` for family `f` (or for a model the catalog does not know: the plain fields). */
export function videoWire(f: CatalogFamily | undefined, r: CatalogVideoRequest): VideoWire {
  if (f?.route === 'videos-multipart') return multipartWire(f, r);
  const body: WireBody = { model: r.model.trim(), prompt: r.prompt.trim() };
  const fields = f?.fields ?? {};
  const scalar: [keyof NonNullable<CatalogFamily['fields']>, unknown][] = [
    ['seconds', r.seconds],
    ['aspectRatio', r.aspectRatio],
    ['resolution', r.resolution],
    ['size', r.size],
    ['mode', r.mode],
  ];
  const fallback = {
    seconds: 'duration',
    aspectRatio: 'metadata.aspect_ratio',
    resolution: 'size',
    size: 'size',
    mode: 'mode',
  };
  for (const [k, v] of scalar) if (v !== undefined) setPath(body, fields[k] ?? fallback[k], v);
  if (r.audio !== undefined && f?.audio) setPath(body, f.audio.field, r.audio ? f.audio.on : f.audio.off);
  if (!f) {
    const images = [...(r.firstFrame ? [r.firstFrame] : []), ...(r.references ?? [])];
    if (images.length) body.images = images;
    return { path: '/video/generations', json: body };
  }
  if (r.firstFrame !== undefined && f.firstFrame) putImage(body, f.firstFrame, r.firstFrame);
  if (r.lastFrame !== undefined && f.lastFrame) putImage(body, f.lastFrame, r.lastFrame);
  for (const ref of r.references ?? []) if (f.references) putImage(body, f.references, ref);
  return { path: '/video/generations', json: body };
}

function multipartWire(f: CatalogFamily, r: CatalogVideoRequest): VideoWire {
  const fields: Record<string, string> = { model: r.model.trim(), prompt: r.prompt.trim() };
  if (r.seconds !== undefined) fields[f.fields?.seconds ?? 'seconds'] = String(r.seconds);
  if (r.size !== undefined) fields[f.fields?.size ?? 'size'] = r.size;
  const files: Record<string, string> = {};
  const ref = r.references?.[0] ?? r.firstFrame;
  if (ref !== undefined) files[f.references?.field ?? 'input_reference'] = ref;
  return { path: '/videos', fields, files };
}
