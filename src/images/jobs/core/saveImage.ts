/**
 * Saving an answer's image: `<prompt-slug>-<id>.<ext>` in the output folder, the id made here and
 * the extension read from the image's own first bytes, so nothing the gateway sends (a file name, a
 * content type, a link's path) chooses where a file goes or what it is called. Bytes go to a
 * temporary file beside the target (a link's body streams: ../../../api/images/imageDownload) and
 * are linked into place, never over an existing file; a sidecar `<name>.json` says how it was made.
 */
import { randomBytes } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { HttpClient } from '../../../api/transport/http';
import type { ImageOutput } from '../../../api/images/imageAnswer';
import { IMAGE_EXTENSION, MAGIC_BYTES, imageFormat, type ImageFormat } from '../../../api/images/imageBytes';
import { DEFAULT_MAX_IMAGE_BYTES, notAnImage, tooLarge, type ImageSink } from '../../../api/images/imageDownload';
import { partFileName } from '../../../files/partFileNames';
import { WriteBehind } from '../../../files/writeBehind';

/** What the sidecar records besides the file. */
export interface ImageMeta {
  prompt: string;
  model: string;
  operation: 'generate' | 'edit' | 'chat';
  size?: string;
  quality?: string;
  /** The input images of an edit, as the user named them. */
  inputs?: string[];
}

export interface SavedImage {
  file: string;
  sidecar: string;
  bytes: number;
  format: ImageFormat;
}

/** Tries of a fresh id when a name is taken (a file the user already has is never replaced). */
const NAME_TRIES = 5;

/** The first words of a prompt as a file-name slug: lower-case letters and digits, dashes, at most 40. */
export function promptSlug(prompt: string): string {
  const slug = prompt
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'image';
}

export function newImageId(): string {
  return randomBytes(4).toString('hex');
}

/** A part file in `folder` that the sink writes; `keep` links it to a fresh `<slug>-<id>.<ext>`. */
class ImageFileSink implements ImageSink {
  private readonly temp: string;
  private fh: fs.FileHandle | undefined;

  constructor(
    private readonly folder: string,
    private readonly slug: string,
  ) {
    this.temp = path.join(folder, partFileName(`${slug}.image`));
  }

  async open(): Promise<void> {
    this.fh = await fs.open(this.temp, 'wx');
  }

  /** Writes a whole decoded image at once (base64 answers). */
  async writeAll(bytes: Uint8Array): Promise<void> {
    await this.fh!.write(bytes, 0, bytes.length, 0);
  }

  writable(check: (chunk: Uint8Array) => void): WriteBehind {
    return new WriteBehind(this.fh!, { check });
  }

  async keep(format: ImageFormat, bytes: number): Promise<string> {
    await this.fh!.truncate(bytes);
    await this.fh!.sync();
    await this.fh!.close();
    this.fh = undefined;
    for (let i = 0; ; i++) {
      const file = path.join(this.folder, `${this.slug}-${newImageId()}.${IMAGE_EXTENSION[format]}`);
      try {
        // link() refuses an existing target, unlike rename().
        await fs.link(this.temp, file);
        return file;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || i >= NAME_TRIES) throw e;
      }
    }
  }

  async dispose(): Promise<void> {
    await this.fh?.close().catch(() => undefined);
    this.fh = undefined;
    await fs.unlink(this.temp).catch(() => undefined);
  }
}

/** Writes base64 image data through the sink with the same checks a download gets. */
async function saveBase64(
  data: string,
  sink: ImageFileSink,
  max: number,
): Promise<{ file: string; bytes: number; format: ImageFormat }> {
  try {
    // base64 is 4/3 of the bytes: a body that cannot fit is refused before it is decoded.
    const what = l10n.t('The image in the answer');
    if (Math.floor((data.length * 3) / 4) > max + 2) throw tooLarge(what, max);
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > max) throw tooLarge(what, max);
    const format = imageFormat(bytes.subarray(0, MAGIC_BYTES));
    if (!format) throw notAnImage(what);
    await sink.writeAll(bytes);
    return { file: await sink.keep(format, bytes.length), bytes: bytes.length, format };
  } finally {
    await sink.dispose();
  }
}

/**
 * Saves one image of an answer into `folder` (made if missing) with its sidecar. A link is
 * downloaded with `http` (the resolved-address rule, the limit, the magic bytes all apply); base64
 * data is checked the same way. Nothing is left behind on failure.
 */
export async function saveImageOutput(
  http: HttpClient,
  folder: string,
  out: ImageOutput,
  meta: ImageMeta,
  o: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<SavedImage> {
  const max = o.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  await fs.mkdir(folder, { recursive: true });
  const sink = new ImageFileSink(folder, promptSlug(meta.prompt));
  await sink.open();
  let r: { file: string; bytes: number; format: ImageFormat };
  if (out.kind === 'b64') r = await saveBase64(out.data, sink, max);
  else {
    // Loaded with the first link answer: node:http and the stream plumbing are not needed before.
    const { fetchImage } = await import('../../../api/images/imageDownload');
    r = await fetchImage(http, out.url, sink, { signal: o.signal, maxBytes: max });
  }
  const sidecar = r.file.replace(/\.[a-z]+$/, '.json');
  const record = {
    ...meta,
    ...(out.revisedPrompt !== undefined ? { revisedPrompt: out.revisedPrompt } : {}),
    file: path.basename(r.file),
    format: r.format,
    bytes: r.bytes,
    source: out.kind === 'url' ? new URL(out.url).host : 'b64_json',
    createdAt: new Date().toISOString(),
  };
  await fs.writeFile(sidecar, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
  return { file: r.file, sidecar, bytes: r.bytes, format: r.format };
}
