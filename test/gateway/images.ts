/**
 * The image routes (issue 40): `POST /v1/images/generations`, `POST /v1/images/edits`
 * (multipart), the chat form of Gemini-class image models, and `/files/images/…`, the link host of
 * `url` answers. Real PNGs (made here with zlib), OpenAI's refusal words, prices per image.
 * See README.md ("Images").
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { deflateSync } from 'node:zlib';
import type { FaultEffects } from './faults';
import { BodyWriter, httpError, sendJson } from './http';
import { parseMultipart, type MultipartPart } from './multipart';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface ImageModel {
  /** What a url-or-b64 answer carries by default. */
  answer: 'b64_json' | 'url';
  maxN: number;
  sizes?: readonly string[];
  /** Any `WxH` besides the listed sizes. */
  anySize?: boolean;
  qualities?: readonly string[];
  backgrounds?: readonly string[];
  formats?: readonly string[];
  /** Most images an edit takes; 0: no edits. */
  maxEditImages: number;
  mask: boolean;
}

/** The image models (OpenAI's Images API reference for gpt-image; the relays' shapes for the others). */
export const IMAGE_MODELS: Readonly<Record<string, ImageModel>> = {
  'gpt-image-1': {
    answer: 'b64_json',
    maxN: 10,
    sizes: ['auto', '1024x1024', '1536x1024', '1024x1536'],
    qualities: ['auto', 'low', 'medium', 'high'],
    backgrounds: ['auto', 'transparent', 'opaque'],
    formats: ['png', 'jpeg', 'webp'],
    maxEditImages: 16,
    mask: true,
  },
  // Seedream takes 1K/2K/4K or any WxH (Volcengine ARK's `size`).
  'doubao-seedream-4-0': {
    answer: 'url',
    maxN: 1,
    sizes: ['1K', '2K', '4K'],
    anySize: true,
    maxEditImages: 0,
    mask: false,
  },
  'flux-kontext-pro': { answer: 'url', maxN: 1, formats: ['png', 'jpeg'], maxEditImages: 1, mask: false },
};

/** Chat models that answer with an image in the assistant message. */
export const CHAT_IMAGE_MODELS: ReadonlySet<string> = new Set(['gemini-2.5-flash-image']);

/** OpenAI's refusal of an unsafe image prompt (its `moderation_blocked` error). */
export const REFUSAL =
  'Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A real PNG of one colour, `width` × `height`. */
export function makePng(width: number, height: number, rgb: [number, number, number] = [40, 90, 160]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Width and height of a PNG, undefined for anything else. */
export function pngSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

const isImage = (b: Buffer) =>
  b.readUInt32BE(0) === 0x89504e47 || (b[0] === 0xff && b[1] === 0xd8) || b.subarray(8, 12).toString() === 'WEBP';

function bad(message: string, param: string | null, code = 'invalid_value'): never {
  throw httpError(400, 'invalid_request_error', code, message, param);
}

function directive(prompt: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)#${name}(?::(\\S+))?(?=\\s|$)`).exec(prompt);
  return m ? (m[1] ?? '') : undefined;
}

/** `1024x1536` -> its numbers (a PNG that size is made, capped at 2048 a side). */
function dims(size: string | undefined): [number, number] {
  const m = /^(\d{2,4})x(\d{2,4})$/.exec(size ?? '');
  return m ? [Math.min(2048, Number(m[1])), Math.min(2048, Number(m[2]))] : [64, 64];
}

/** The image routes of one gateway, with the files its `url` answers point to. */
export class ImageStore {
  private files = new Map<string, Buffer>();
  /** The chat host's root: where `/files/images/…` links point. */
  hostUrl = '';

  constructor(private readonly charge?: (model: string, n: number, id: string) => void) {}

  reset(): void {
    this.files.clear();
  }

  private common(body: Json, model: ImageModel | undefined, name: string): { n: number; prompt: string } {
    if (typeof body.prompt !== 'string' || body.prompt.trim() === '') bad('prompt is required', 'prompt');
    if (!model) bad(`model ${JSON.stringify(body.model)} is not an image model`, 'model', 'model_not_found');
    const n = body.n === undefined ? 1 : Number(body.n);
    if (!Number.isInteger(n) || n < 1) bad('n must be a positive integer', 'n');
    if (n > model.maxN) bad(`${name} supports at most n=${model.maxN} (got ${n})`, 'n');
    const listed = (v: unknown, list: readonly string[] | undefined, param: string) => {
      if (v === undefined) return;
      if (!list) bad(`${name} does not take ${param}`, param, 'unknown_parameter');
      if (!list.includes(String(v))) bad(`${param} must be one of ${list.join(', ')} (got ${String(v)})`, param);
    };
    if (!(model.anySize && /^\d{2,5}x\d{2,5}$/.test(String(body.size)))) listed(body.size, model.sizes, 'size');
    listed(body.quality, model.qualities, 'quality');
    listed(body.background, model.backgrounds, 'background');
    listed(body.output_format, model.formats, 'output_format');
    if (directive(body.prompt, 'refuse') !== undefined)
      throw httpError(400, 'image_generation_user_error', 'moderation_blocked', REFUSAL, null);
    return { n, prompt: body.prompt };
  }

  /** `data` items of an answer: a link under `#link:<url>`, none under `#noimage`, else the model's kind. */
  private items(prompt: string, png: Buffer, n: number, answer: 'b64_json' | 'url'): Json[] {
    if (directive(prompt, 'noimage') !== undefined) return [{ revised_prompt: prompt }];
    const link = directive(prompt, 'link');
    if (link) return [{ url: link }];
    const big = directive(prompt, 'big');
    if (big) return [{ url: `${this.hostUrl}/files/images/big-${Number(big)}.png` }];
    if (directive(prompt, 'notimage') !== undefined) return [{ url: `${this.hostUrl}/files/images/notimage.png` }];
    return Array.from({ length: n }, () => {
      if (answer === 'b64_json') return { b64_json: png.toString('base64') };
      const name = `img_${randomBytes(8).toString('hex')}.png`;
      this.files.set(name, png);
      return { url: `${this.hostUrl}/files/images/${name}?sig=${randomBytes(4).toString('hex')}` };
    });
  }

  private async answer(res: ServerResponse, name: string, items: Json[], n: number, fx: FaultEffects): Promise<void> {
    const id = `img_${randomBytes(6).toString('hex')}`;
    if (items.some((i) => i.b64_json !== undefined || i.url !== undefined)) this.charge?.(name, n, id);
    await sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data: items, usage: { images: n } }, fx);
  }

  /** `POST /v1/images/generations`. */
  async generate(res: ServerResponse, body: unknown, fx: FaultEffects): Promise<void> {
    if (!isObj(body)) bad('request body must be a JSON object', null, 'invalid_json');
    const name = String(body.model ?? '');
    const model = IMAGE_MODELS[name];
    const { n, prompt } = this.common(body, model, name);
    const answer =
      body.response_format === 'url' || body.response_format === 'b64_json' ? body.response_format : model!.answer;
    const [w, h] = dims(typeof body.size === 'string' ? body.size : undefined);
    await this.answer(
      res,
      name,
      this.items(prompt, makePng(w, h), n, name === 'gpt-image-1' ? 'b64_json' : answer),
      n,
      fx,
    );
  }

  /** `POST /v1/images/edits` (multipart/form-data). */
  async edit(res: ServerResponse, raw: Buffer, contentType: string | undefined, fx: FaultEffects): Promise<void> {
    const parts = parseMultipart(raw, contentType);
    if (!parts) bad('images/edits takes multipart/form-data', null, 'invalid_content_type');
    const fields: Json = {};
    const images: MultipartPart[] = [];
    let mask: MultipartPart | undefined;
    for (const p of parts) {
      if (p.name === 'image' || p.name === 'image[]') images.push(p);
      else if (p.name === 'mask') mask = p;
      else fields[p.name] = p.data.toString('utf8');
    }
    const name = String(fields.model ?? '');
    const model = IMAGE_MODELS[name];
    const { n, prompt } = this.common(fields, model, name);
    if (images.length === 0) bad('image is required', 'image');
    if (model!.maxEditImages === 0) bad(`${name} does not edit images`, 'model');
    if (images.length > model!.maxEditImages) bad(`${name} edits at most ${model!.maxEditImages} images`, 'image');
    for (const img of images)
      if (!isImage(img.data))
        bad(`Invalid image file: ${img.filename ?? 'image'} is not an image`, 'image', 'invalid_image');
    if (mask) {
      if (!model!.mask) bad(`${name} does not take a mask`, 'mask', 'unknown_parameter');
      const a = pngSize(images[0]!.data);
      const b = pngSize(mask.data);
      if (!b) bad('mask must be a PNG', 'mask', 'invalid_image');
      if (a && (a.width !== b.width || a.height !== b.height))
        bad(
          `Invalid mask image: the mask and the image must have the same dimensions (${b.width}x${b.height} vs ${a.width}x${a.height})`,
          'mask',
          'invalid_image',
        );
    }
    const size = pngSize(images[0]!.data);
    const png = makePng(size?.width ?? 64, size?.height ?? 64, [160, 60, 40]);
    await this.answer(
      res,
      name,
      this.items(prompt, png, n, name === 'gpt-image-1' ? 'b64_json' : model!.answer),
      n,
      fx,
    );
  }

  /** The chat form of an image model: the image in `message.images` (or in Markdown under `#markdown`). */
  async chat(res: ServerResponse, body: Json, fx: FaultEffects): Promise<void> {
    const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
    const last = messages[messages.length - 1];
    const content = last?.content;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? (content as Json[]).map((p) => (p.type === 'text' ? String(p.text) : '')).join('\n')
          : '';
    const name = String(body.model);
    const base = {
      id: `chatcmpl-${randomBytes(6).toString('hex')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: name,
    };
    const usage = { prompt_tokens: 10, completion_tokens: 1290, total_tokens: 1300 };
    if (directive(text, 'refuse') !== undefined) {
      const message = {
        role: 'assistant',
        content: "I can't make that image: it goes against the content policy (safety filter).",
      };
      return sendJson(res, 200, { ...base, choices: [{ index: 0, message, finish_reason: 'stop' }], usage }, fx);
    }
    const url = `data:image/png;base64,${makePng(64, 64, [20, 140, 60]).toString('base64')}`;
    const message =
      directive(text, 'markdown') !== undefined
        ? { role: 'assistant', content: `Here it is:\n\n![image](${url})` }
        : { role: 'assistant', content: 'Here is your image.', images: [{ type: 'image_url', image_url: { url } }] };
    this.charge?.(name, 1, `img_${randomBytes(6).toString('hex')}`);
    await sendJson(res, 200, { ...base, choices: [{ index: 0, message, finish_reason: 'stop' }], usage }, fx);
  }

  /** `GET /files/images/<name>`: a made image, a large one (`big-<MB>.png`, streamed), or a text posing as a PNG. */
  async file(res: ServerResponse, name: string, fx: FaultEffects): Promise<void> {
    if (name === 'notimage.png') {
      const body = Buffer.from('<html>this is not an image</html>');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    const big = /^big-(\d+)\.png$/.exec(name);
    if (big) return this.bigFile(res, Number(big[1]) * 1024 * 1024, fx);
    const data = this.files.get(name);
    if (!data) throw httpError(404, 'invalid_request_error', 'not_found', `no image ${name}`);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(data.length) });
    const w = new BodyWriter(res, fx);
    if (await w.write(data)) w.end();
  }

  /** A `size`-byte "PNG" (a real signature, then padding) streamed in 64 KiB pieces that wait for drain. */
  private async bigFile(res: ServerResponse, size: number, fx: FaultEffects): Promise<void> {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(size) });
    const w = new BodyWriter(res, fx);
    const head = makePng(8, 8);
    if (!(await w.write(head))) return;
    const piece = Buffer.alloc(64 * 1024);
    for (let left = size - head.length; left > 0; left -= piece.length)
      if (!(await w.write(left >= piece.length ? piece : piece.subarray(0, left)))) return;
    w.end();
  }
}
