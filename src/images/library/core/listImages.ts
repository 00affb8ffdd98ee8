/**
 * The images in the output folder as the Media gallery lists them: regular image files (by
 * extension; a link is skipped, so a committed `images/x.png -> ~/.ssh/id_rsa` is never shown or
 * loaded), each with the fields of its sidecar `<name>.json` when that is a small JSON object.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ImageLibraryItem } from '../../../contracts/mediaImages';

const IMAGE_NAME = /\.(png|jpe?g|webp|gif)$/i;
/** A sidecar is a few hundred bytes; a bigger file is not ours. */
const MAX_SIDECAR = 64 * 1024;
/** Most images listed (the newest). */
export const MAX_LISTED = 500;

function field(o: Record<string, unknown>, k: string): string | undefined {
  const v = o[k];
  return typeof v === 'string' && v.length > 0 ? v.slice(0, 4000) : undefined;
}

/** The sidecar's fields the gallery shows; {} when there is none or it is not ours. */
export async function readSidecar(image: string): Promise<Partial<ImageLibraryItem>> {
  const file = image.replace(/\.[^.]+$/, '.json');
  const st = await fs.lstat(file).catch(() => undefined);
  if (!st?.isFile() || st.size > MAX_SIDECAR) return {};
  let o: unknown;
  try {
    o = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return {};
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return {};
  const r = o as Record<string, unknown>;
  const out: Partial<ImageLibraryItem> = {};
  for (const k of ['prompt', 'model', 'operation', 'size'] as const) {
    const v = field(r, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Every image file directly in `folder`, newest first; [] when the folder does not exist. */
export async function listImages(folder: string, max = MAX_LISTED): Promise<ImageLibraryItem[]> {
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const found: ImageLibraryItem[] = [];
  for (const name of names) {
    if (!IMAGE_NAME.test(name)) continue;
    const file = path.join(folder, name);
    const st = await fs.lstat(file).catch(() => undefined);
    if (!st?.isFile()) continue;
    found.push({ file, name, bytes: st.size, mtime: st.mtimeMs });
  }
  found.sort((a, b) => b.mtime - a.mtime || a.name.localeCompare(b.name));
  const kept = found.slice(0, max);
  return Promise.all(kept.map(async (i) => ({ ...i, ...(await readSidecar(i.file)) })));
}
