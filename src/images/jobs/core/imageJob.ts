/**
 * One image request from send to saved files, shared by the Generate Image command, the Edit
 * Image command and the agent tools: the request goes once (an image is billed), `billed` hears
 * of the answer once, before anything is saved, then each image is saved into the output folder.
 * An image whose save failed (a full disk, a link that timed out) is kept in the result with its
 * error; `retry` saves only those again from the answer already in hand, so a save tried again is
 * never a second request and never a second charge.
 */
import { randomBytes } from 'node:crypto';
import type { CatalogFamily } from '../../../api/catalog/catalog';
import type { ImageAnswer, ImageClient, ImageInput, ImageOutput } from '../../../api/images/images';
import { imageFormat, imageMime } from '../../../api/images/imageBytes';
import { checkEditInputs } from '../../../api/images/imageInputs';
import { saveImageOutput, type ImageMeta, type SavedImage } from './saveImage';

/** What is asked of the model, generation or edit alike (the catalog checked it before). */
export interface ImageJobRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  background?: string;
  outputFormat?: string;
}

/** The images an edit starts from (the first is the one a mask applies to), as the user named them. */
export interface ImageEditInputs {
  images: ImageInput[];
  mask?: ImageInput;
  /** How the inputs are named in the sidecar (workspace paths). */
  labels: string[];
}

export interface ImageJobOptions {
  client: ImageClient;
  /** The model's catalog family: its route decides `/v1/images/*` or the chat form. */
  family: CatalogFamily | undefined;
  /** The output folder, already checked to be inside the workspace (./outputFolder). */
  folder: string;
  request: ImageJobRequest;
  signal?: AbortSignal;
  /** The answer arrived: called once per sent request, with the job's id and how many images it holds. */
  billed?: (jobId: string, images: number) => void;
  maxBytes?: number;
}

export interface ImageJobFailure {
  index: number;
  error: unknown;
}

export interface ImageJobResult {
  /** Made here, once per sent request: the charge and the ledger know the job by it. */
  jobId: string;
  saved: SavedImage[];
  failed: ImageJobFailure[];
  /** Saves the failed images again from the same answer (nothing is sent). */
  retry(signal?: AbortSignal): Promise<ImageJobResult>;
}

export function newJobId(): string {
  return `img-${randomBytes(6).toString('hex')}`;
}

function dataUrl(img: ImageInput): string {
  const f = imageFormat(img.bytes) ?? 'png';
  return `data:${imageMime(f)};base64,${Buffer.from(img.bytes).toString('base64')}`;
}

function wireFields(r: ImageJobRequest) {
  return {
    model: r.model,
    prompt: r.prompt,
    ...(r.n !== undefined && r.n > 1 ? { n: r.n } : {}),
    ...(r.size ? { size: r.size } : {}),
    ...(r.quality ? { quality: r.quality } : {}),
    ...(r.background ? { background: r.background } : {}),
    ...(r.outputFormat ? { output_format: r.outputFormat } : {}),
  };
}

/** Sends the request once by the family's route: generations, edits (multipart) or the chat form. */
function send(o: ImageJobOptions, inputs?: ImageEditInputs): Promise<ImageAnswer> {
  const r = o.request;
  if (o.family?.route === 'chat-images')
    return o.client.chatImage(
      { model: r.model, prompt: r.prompt, ...(inputs ? { images: inputs.images.map(dataUrl) } : {}) },
      o.signal,
    );
  if (inputs)
    return o.client.edit(
      wireFields(r),
      { images: inputs.images, ...(inputs.mask ? { mask: inputs.mask } : {}) },
      { ...(o.signal ? { signal: o.signal } : {}), ...(o.maxBytes !== undefined ? { maxBytes: o.maxBytes } : {}) },
    );
  return o.client.generate(wireFields(r), o.signal);
}

async function saveAll(
  o: ImageJobOptions,
  jobId: string,
  outputs: readonly { index: number; out: ImageOutput }[],
  meta: ImageMeta,
): Promise<ImageJobResult> {
  const saved: SavedImage[] = [];
  const failed: ImageJobFailure[] = [];
  for (const { index, out } of outputs) {
    try {
      saved.push(
        await saveImageOutput(o.client.http, o.folder, out, meta, {
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.maxBytes !== undefined ? { maxBytes: o.maxBytes } : {}),
        }),
      );
    } catch (error) {
      failed.push({ index, error });
    }
  }
  const left = outputs.filter((x) => failed.some((f) => f.index === x.index));
  return {
    jobId,
    saved,
    failed,
    retry: (signal) => saveAll({ ...o, ...(signal ? { signal } : {}) }, jobId, left, meta),
  };
}

async function run(o: ImageJobOptions, operation: ImageMeta['operation'], inputs?: ImageEditInputs) {
  // Checked here too: the chat form does not pass through the multipart edit's own check.
  if (inputs) checkEditInputs({ images: inputs.images, ...(inputs.mask ? { mask: inputs.mask } : {}) }, o.maxBytes);
  const answer = await send(o, inputs);
  const jobId = newJobId();
  o.billed?.(jobId, answer.images.length);
  const r = o.request;
  const meta: ImageMeta = {
    prompt: r.prompt,
    model: r.model,
    operation: o.family?.route === 'chat-images' ? 'chat' : operation,
    ...(r.size ? { size: r.size } : {}),
    ...(r.quality ? { quality: r.quality } : {}),
    ...(inputs ? { inputs: inputs.labels } : {}),
  };
  return saveAll(
    o,
    jobId,
    answer.images.map((out, index) => ({ index, out })),
    meta,
  );
}

/** Generates images and saves them; see the module's comment for failures and `retry`. */
export function generateImages(o: ImageJobOptions): Promise<ImageJobResult> {
  return run(o, 'generate');
}

/**
 * Edits images (with an optional mask) and saves the results beside the others in the output
 * folder, never over an input. The inputs are checked by their bytes before anything is sent
 * (api/images/imageInputs: an image by its magic bytes, the size limit, a PNG mask of the first
 * image's size). The one edit operation: the Edit Image command calls it as the tool does.
 */
export function editImage(o: ImageJobOptions & { inputs: ImageEditInputs }): Promise<ImageJobResult> {
  return run(o, 'edit', o.inputs);
}
