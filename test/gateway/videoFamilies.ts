/**
 * The relays' video shapes (issue 40), checked the way a relay's adaptor reads them: new-api's
 * unified `POST /v1/video/generations` per family (Kling, Seedance, Veo, Wan, Hailuo, Vidu) and
 * OpenAI's multipart `POST /v1/videos`. Written from the relays' own source (new-api
 * relay/channel/task/<family>), NOT from the extension's catalog, so a wrong field in the catalog
 * is a 400 here instead of a silent pass. An accepted request starts a task of video.ts.
 */
import type { ServerResponse } from 'node:http';
import type { FaultEffects } from './faults';
import { httpError } from './http';
import { parseMultipart } from './multipart';
import type { VideoStore } from './video';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(message: string, param: string | null, code = 'invalid_request'): never {
  throw httpError(400, 'invalid_request_error', code, message, param);
}

type Image = 'url' | 'url-or-base64';

/** What one family's adaptor reads: top-level and metadata keys with their checks. */
interface FamilyShape {
  pattern: RegExp;
  top: Readonly<Record<string, (v: unknown, p: string) => void>>;
  metadata: Readonly<Record<string, (v: unknown, p: string) => void>>;
  /** Checks across fields (a last frame needs a first). */
  whole?: (b: Json, md: Json) => void;
  seconds: (b: Json, md: Json) => number;
}

const oneOf =
  (...allowed: (string | number)[]) =>
  (v: unknown, p: string) => {
    const n = typeof v === 'string' && /^\d+$/.test(v) && allowed.every((a) => typeof a === 'number') ? Number(v) : v;
    if (!allowed.includes(n as string | number))
      bad(`${p} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`, p);
  };
const bool = (v: unknown, p: string) => {
  if (typeof v !== 'boolean') bad(`${p} must be a boolean`, p);
};
const text = (v: unknown, p: string) => {
  if (typeof v !== 'string') bad(`${p} must be a string`, p);
};
const any = () => undefined;

function image(kind: Image) {
  return (v: unknown, p: string) => {
    if (typeof v !== 'string' || v.trim() === '') bad(`${p} must be an image`, p, 'invalid_image_url');
    if (/^https?:\/\//.test(v)) {
      if (new URL(v).hostname.endsWith('.invalid'))
        throw httpError(
          400,
          'invalid_request_error',
          'image_fetch_error',
          `failed to fetch ${p} from ${new URL(v).hostname}`,
          p,
        );
      return;
    }
    if (kind === 'url')
      bad(
        `${p} must be a public http(s) URL: this model does not accept uploaded or base64 images (got "${v.slice(0, 40)}")`,
        p,
        'invalid_image_url',
      );
    if (!/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+$/i.test(v) && !/^[A-Za-z0-9+/=]{16,}$/.test(v))
      bad(`${p} must be an http(s) URL or base64 image data`, p, 'invalid_image_url');
  };
}
const images = (kind: Image, max: number) => (v: unknown, p: string) => {
  if (!Array.isArray(v) || v.length === 0 || v.length > max) bad(`${p} must be a list of 1 to ${max} images`, p);
  v.forEach((x, i) => image(kind)(x, `${p}[${i}]`));
};

const seedanceRoles = ['first_frame', 'last_frame', 'reference_image'];
function seedanceContent(v: unknown, p: string): void {
  if (!Array.isArray(v)) bad(`${p} must be a list of content items`, p);
  v.forEach((item, i) => {
    if (!isObj(item) || item.type !== 'image_url' || !isObj(item.image_url))
      bad(`${p}[${i}] must be { type: "image_url", image_url: { url }, role }`, `${p}[${i}]`);
    image('url-or-base64')(item.image_url.url, `${p}[${i}].image_url.url`);
    if (!seedanceRoles.includes(String(item.role)))
      bad(`${p}[${i}].role must be one of ${seedanceRoles.join(', ')}`, `${p}[${i}].role`);
  });
  const roles = v.map((i) => (i as Json).role);
  if (roles.includes('last_frame') && !roles.includes('first_frame')) bad('a last_frame needs a first_frame', p);
  if (roles.includes('reference_image') && roles.some((r) => r !== 'reference_image'))
    bad('reference_image cannot be combined with first_frame or last_frame', p);
}

const base = { model: any, prompt: any };
const duration = (b: Json, _md: Json) => Number(b.duration ?? 5);

export const FAMILY_SHAPES: Readonly<Record<string, FamilyShape>> = {
  kling: {
    pattern: /^kling-/i,
    top: { ...base, image: image('url-or-base64'), duration: oneOf(5, 10), mode: oneOf('std', 'pro') },
    metadata: {
      aspect_ratio: oneOf('16:9', '9:16', '1:1'),
      image_tail: image('url-or-base64'),
      negative_prompt: text,
      sound: oneOf('on', 'off'),
      cfg_scale: any,
    },
    seconds: duration,
  },
  seedance: {
    pattern: /seedance/i,
    top: { ...base, duration: oneOf(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), images: images('url-or-base64', 4) },
    metadata: {
      ratio: oneOf('16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'),
      resolution: oneOf('480p', '720p', '1080p'),
      generate_audio: bool,
      seed: any,
      camera_fixed: bool,
      watermark: bool,
      content: seedanceContent,
    },
    seconds: duration,
  },
  veo: {
    pattern: /^veo-/i,
    top: { ...base, image: image('url-or-base64') },
    metadata: {
      durationSeconds: oneOf(4, 6, 8),
      aspectRatio: oneOf('16:9', '9:16'),
      resolution: oneOf('720p', '1080p'),
      generateAudio: bool,
      negativePrompt: text,
    },
    seconds: (_b, md) => Number(md.durationSeconds ?? 8),
  },
  wan: {
    pattern: /^wanx?/i,
    top: { ...base, duration: oneOf(5, 10), size: oneOf('480P', '720P', '1080P'), input_reference: image('url') },
    metadata: {
      first_frame_url: image('url'),
      last_frame_url: image('url'),
      img_url: image('url'),
      audio: bool,
      audio_url: image('url'),
      negative_prompt: text,
      prompt_extend: bool,
      seed: any,
    },
    whole: (_b, md) => {
      if (md.last_frame_url !== undefined && md.first_frame_url === undefined)
        bad('last_frame_url needs first_frame_url', 'metadata.last_frame_url');
    },
    seconds: duration,
  },
  hailuo: {
    pattern: /hailuo|^minimax-|^[its]2v-01/i,
    top: { ...base, duration: oneOf(6, 10), size: text },
    metadata: {
      first_frame_image: image('url-or-base64'),
      last_frame_image: image('url-or-base64'),
      resolution: oneOf('512P', '768P', '1080P'),
      prompt_optimizer: bool,
    },
    whole: (_b, md) => {
      if (md.last_frame_image !== undefined && md.first_frame_image === undefined)
        bad('last_frame_image needs first_frame_image', 'metadata.last_frame_image');
    },
    seconds: (b) => Number(b.duration ?? 6),
  },
  vidu: {
    pattern: /^vidu/i,
    top: {
      ...base,
      images: images('url-or-base64', 7),
      duration: oneOf(4, 5, 8),
      size: oneOf('360p', '720p', '1080p'),
    },
    metadata: { bgm: bool, movement_amplitude: oneOf('auto', 'small', 'medium', 'large'), seed: any },
    seconds: duration,
  },
};

/** The family whose model pattern `model` matches. */
export function familyOf(model: string): [string, FamilyShape] | undefined {
  return Object.entries(FAMILY_SHAPES).find(([, f]) => f.pattern.test(model));
}

/** `POST /v1/video/generations`: the family's fields checked, then a task started. */
export async function createUnified(
  res: ServerResponse,
  body: unknown,
  videos: VideoStore,
  fx: FaultEffects,
): Promise<void> {
  if (!isObj(body)) bad('request body must be a JSON object', null);
  if (typeof body.prompt !== 'string' || body.prompt.trim() === '') bad('prompt is required', 'prompt');
  if (typeof body.model !== 'string' || body.model === '') bad('model field is required', 'model');
  const found = familyOf(body.model);
  if (!found) bad(`no channel serves model ${body.model} on /v1/video/generations`, 'model', 'model_not_found');
  const [name, shape] = found;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'metadata') continue;
    const check = shape.top[k];
    if (!check) bad(`${name} does not take the field ${k}`, k, 'unknown_parameter');
    check(v, k);
  }
  const md = body.metadata === undefined ? {} : body.metadata;
  if (!isObj(md)) bad('metadata must be an object', 'metadata');
  for (const [k, v] of Object.entries(md)) {
    const check = shape.metadata[k];
    if (!check) bad(`${name} does not take metadata.${k}`, `metadata.${k}`, 'unknown_parameter');
    check(v, `metadata.${k}`);
  }
  shape.whole?.(body, md);
  const urls = [
    body.image,
    body.input_reference,
    ...(Array.isArray(body.images) ? body.images : []),
    md.first_frame_url,
    md.last_frame_url,
  ].filter((u): u is string => typeof u === 'string');
  const resolution = String(md.resolution ?? body.size ?? '720p');
  await videos.createChecked(
    res,
    { model: body.model, prompt: body.prompt, seconds: shape.seconds(body, md), resolution, urls },
    fx,
  );
}

const SORA_SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'];

/** `POST /v1/videos` (OpenAI's form): multipart with an optional `input_reference` image file. */
export async function createMultipart(
  res: ServerResponse,
  raw: Buffer,
  contentType: string | undefined,
  videos: VideoStore,
  fx: FaultEffects,
): Promise<void> {
  const parts = parseMultipart(raw, contentType);
  if (!parts) bad('POST /v1/videos takes multipart/form-data', null, 'invalid_content_type');
  const f: Json = {};
  let reference: Buffer | undefined;
  for (const p of parts) {
    if (p.name === 'input_reference') {
      if (p.filename === undefined) bad('input_reference must be a file, not a text field', 'input_reference');
      reference = p.data;
    } else if (['model', 'prompt', 'seconds', 'size'].includes(p.name)) f[p.name] = p.data.toString('utf8');
    else bad(`unknown field ${p.name}`, p.name, 'unknown_parameter');
  }
  if (typeof f.prompt !== 'string' || f.prompt.trim() === '') bad('prompt is required', 'prompt');
  if (typeof f.model !== 'string' || !/^sora-/.test(f.model)) bad('model must be a sora model', 'model');
  if (f.seconds !== undefined) oneOf(4, 8, 12)(f.seconds, 'seconds');
  if (f.size !== undefined) oneOf(...SORA_SIZES)(f.size, 'size');
  if (reference && !(reference.readUInt32BE(0) === 0x89504e47 || (reference[0] === 0xff && reference[1] === 0xd8)))
    bad('input_reference must be a PNG or JPEG image', 'input_reference', 'invalid_image');
  await videos.createChecked(
    res,
    {
      model: f.model,
      prompt: f.prompt,
      seconds: Number(f.seconds ?? 4),
      resolution: String(f.size ?? '720x1280'),
      urls: [],
    },
    fx,
  );
}
