/**
 * The image half of the gateway client: `POST /v1/images/generations` (JSON), `POST
 * /v1/images/edits` (multipart: one or more images, an optional mask) and the chat-completions
 * form relays use for Gemini-class image models. Each is sent once (an image is billed), its
 * inputs checked first (./imageInputs), its answer read into images (./imageAnswer). Saving is
 * the caller's (a link streams through ./imageDownload into its sink); nothing here knows the disk.
 */
import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
import { GatewayError } from '../transport/errors';
import type { HttpClient } from '../transport/http';
import { explainImageFailure, imagesFromChatAnswer, imagesFromImagesAnswer, type ImageOutput } from './imageAnswer';
import { checkEditInputs, type ImageInput } from './imageInputs';
import { imageMime } from './imageBytes';

export type { ImageOutput } from './imageAnswer';
export type { ImageInput } from './imageInputs';

/** `POST /v1/images/generations` as OpenAI documents it (relays pass other fields through). */
export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  background?: string;
  output_format?: string;
  response_format?: 'b64_json' | 'url';
  /** Reference images of families that take them on generations (Seedream): links or data URLs. */
  image?: string[];
}

export interface ImageEditRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  background?: string;
  output_format?: string;
  response_format?: 'b64_json' | 'url';
}

/** What an image call returns: the images and the raw usage the relay reported, if any. */
export interface ImageAnswer {
  images: ImageOutput[];
  usage?: unknown;
}

/** The slowest upload an edit is given time for, as video creation does. */
const UPLOAD_BYTES_PER_SECOND = 50_000;

export class ImageClient {
  constructor(readonly http: HttpClient) {}

  private async postJson(path: string, body: unknown, bytes: number, signal?: AbortSignal): Promise<unknown> {
    const timeoutMs = this.http.timeoutMs + Math.round((bytes / UPLOAD_BYTES_PER_SECOND) * 1000);
    try {
      return await this.http.json('POST', path, z.unknown(), { body, signal, retry: false, timeoutMs });
    } catch (err) {
      throw explainImageFailure(err);
    }
  }

  /** Generates images; sent once. */
  async generate(req: ImageGenerationRequest, signal?: AbortSignal): Promise<ImageAnswer> {
    const body = await this.postJson('/images/generations', req, JSON.stringify(req).length, signal);
    return { images: imagesFromImagesAnswer(body, '/v1/images/generations'), usage: usageOf(body) };
  }

  /**
   * Edits `images` (the first is the one a mask applies to) as multipart/form-data: one image as
   * `image`, several as `image[]`, the mask as `mask`. Inputs are checked before anything is sent.
   */
  async edit(
    req: ImageEditRequest,
    inputs: { images: ImageInput[]; mask?: ImageInput },
    o: { signal?: AbortSignal; maxBytes?: number } = {},
  ): Promise<ImageAnswer> {
    const checked = checkEditInputs(inputs, o.maxBytes);
    const form = new FormData();
    for (const [k, v] of Object.entries(req)) if (v !== undefined) form.append(k, String(v));
    const field = checked.images.length > 1 ? 'image[]' : 'image';
    let bytes = 0;
    for (const img of checked.images) {
      form.append(field, new Blob([img.bytes], { type: imageMime(img.format) }), img.name);
      bytes += img.bytes.byteLength;
    }
    if (checked.mask) {
      form.append('mask', new Blob([checked.mask.bytes], { type: 'image/png' }), checked.mask.name);
      bytes += checked.mask.bytes.byteLength;
    }
    const timeoutMs = this.http.timeoutMs + Math.round((bytes / UPLOAD_BYTES_PER_SECOND) * 1000);
    let text: string;
    try {
      const res = await this.http.request('POST', '/images/edits', { form, signal: o.signal, retry: false, timeoutMs });
      text = await this.http.text(res, { signal: o.signal });
    } catch (err) {
      throw explainImageFailure(err);
    }
    const body = parse(text, '/v1/images/edits');
    return { images: imagesFromImagesAnswer(body, '/v1/images/edits'), usage: usageOf(body) };
  }

  /**
   * The chat form: the prompt (and input images as `image_url` parts) in a user message, the
   * images read from the assistant's message. `modalities` asks relays that need it for an image.
   */
  async chatImage(
    req: { model: string; prompt: string; images?: string[] },
    signal?: AbortSignal,
  ): Promise<ImageAnswer> {
    const content = [
      { type: 'text', text: req.prompt },
      ...(req.images ?? []).map((url) => ({ type: 'image_url', image_url: { url } })),
    ];
    const body = {
      model: req.model,
      stream: false,
      modalities: ['image', 'text'],
      messages: [{ role: 'user', content }],
    };
    const answer = await this.postJson('/chat/completions', body, JSON.stringify(body).length, signal);
    return { images: imagesFromChatAnswer(answer), usage: usageOf(answer) };
  }
}

function usageOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { usage?: unknown }).usage : undefined;
}

function parse(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError(
      'invalid_response',
      l10n.t('POST {0} did not answer JSON: "{1}"', path, text.replace(/\s+/g, ' ').trim().slice(0, 120)),
      { method: 'POST', path },
    );
  }
}
