/**
 * The choices of an image edit, checked before anything is sent: which catalog families edit
 * images (and which take a mask), and the source and mask read from disk with the API's input
 * checks (an image by its bytes, within the limit, a PNG mask of exactly the source's size).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { familyFor, type Catalog, type CatalogFamily } from '../../../api/catalog/catalog';
import { checkEditInputs, type CheckedImage } from '../../../api/images/imageInputs';
import { DEFAULT_MAX_IMAGE_BYTES, tooLarge } from '../../../api/images/imageDownload';

/** The image families that edit (`edits` in the catalog), in catalog order. */
export function editFamilies(catalog: Catalog): CatalogFamily[] {
  return catalog.families.filter((f) => f.kind === 'image' && f.edits !== undefined && f.route === 'images');
}

/**
 * Why `model` cannot make this edit, by its catalog family; undefined when it can (or when the
 * catalog does not know it: the gateway's answer then decides, as for generation).
 */
export function editModelProblem(catalog: Catalog, model: string, withMask: boolean): string | undefined {
  const f = familyFor(catalog, model, 'image');
  if (!f) return undefined;
  if (!f.edits || f.route !== 'images')
    return l10n.t('{0} ({1}) does not edit images; models that do: {2}', model, f.name, names(catalog));
  if (withMask && !f.edits.mask)
    return l10n.t('{0} ({1}) takes no mask: edit without one, or choose {2}', model, f.name, maskNames(catalog));
  return undefined;
}

const names = (c: Catalog) =>
  editFamilies(c)
    .map((f) => f.name)
    .join(', ');
const maskNames = (c: Catalog) =>
  editFamilies(c)
    .filter((f) => f.edits?.mask)
    .map((f) => f.name)
    .join(', ');

/** Reads a file the user chose, refusing one over the limit before reading it. */
async function readInput(file: string, max: number): Promise<{ name: string; bytes: Uint8Array }> {
  const name = path.basename(file);
  const st = await fs.stat(file);
  if (!st.isFile()) throw new Error(l10n.t('{0} is not a file.', name));
  if (st.size > max) throw tooLarge(name, max);
  return { name, bytes: await fs.readFile(file) };
}

/**
 * The source image and the optional mask, read and checked: a mask of another size is refused
 * with both sizes named (../../../api/images/imageInputs), before the model is even asked.
 */
export async function readEditInputs(
  source: string,
  mask: string | undefined,
  max = DEFAULT_MAX_IMAGE_BYTES,
): Promise<{ images: CheckedImage[]; mask?: CheckedImage }> {
  const img = await readInput(source, max);
  const m = mask === undefined ? undefined : await readInput(mask, max);
  return checkEditInputs({ images: [img], ...(m ? { mask: m } : {}) }, max);
}
