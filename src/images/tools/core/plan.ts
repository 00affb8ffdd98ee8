/**
 * A tool call's input turned into a request that may be priced and sent, or the rules it broke:
 * the catalog's checks for the model's family (`n` over the model's limit, a size it does not
 * make), and for an edit the image and mask files. A file path is the model's, so it is untrusted:
 * it must name a file inside a workspace folder and really be there (a committed
 * `ref.png -> ~/.ssh/id_rsa` link is refused by where it leads), never in `.git/` or `.vscode/`,
 * within the size limit, an image by its first bytes, and a mask a PNG of the image's size. No
 * VS Code here: the roots and the catalog come in.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { familyFor, type Catalog, type CatalogFamily } from '../../../api/catalog/catalog';
import { validateCatalogImage } from '../../../api/catalog/catalogRules';
import { DEFAULT_MAX_IMAGE_BYTES } from '../../../api/images/imageDownload';
import { checkEditInputs } from '../../../api/images/imageInputs';
import type { ImageInput } from '../../../api/images/images';
import { checkInside, namedInside, protectedSegment, windowsAliasSegment } from '../../../files/insideWorkspace';
import type { ImageEditInputs, ImageJobRequest } from '../../jobs/core/imageJob';
import { editImageInputSchema, generateImageInputSchema, parseImageInput, type ImageToolIssue } from './toolInput';

export interface ImagePlanContext {
  catalog: Catalog;
  /** The model when the call names none (the user's last one). */
  defaultModel: string;
  /** The workspace folders' paths; a relative path is taken from the first. */
  roots: readonly string[];
  maxBytes?: number;
}

export type ImagePlan =
  | {
      ok: true;
      operation: 'generate' | 'edit';
      request: ImageJobRequest;
      family: CatalogFamily | undefined;
      inputs?: ImageEditInputs;
    }
  | { ok: false; issues: ImageToolIssue[] };

/** A refusal of a path, written for the model. */
export class ImagePathError extends Error {}

/**
 * The file a tool's path names, inside the workspace, with its workspace-relative label. Throws
 * {@link ImagePathError} with the reason otherwise.
 */
export async function resolveToolImage(
  requested: string,
  roots: readonly string[],
): Promise<{ file: string; label: string }> {
  const want = requested.trim().replace(/\\/g, '/');
  if (roots.length === 0) throw new ImagePathError('no folder is open, so no image file can be read');
  if (want === '') throw new ImagePathError('the path is empty');
  if (want.includes('\0')) throw new ImagePathError('the path contains a NUL character');
  if (/^[a-z][a-z0-9+.-]*:/i.test(want) && !/^[a-z]:\//i.test(want))
    throw new ImagePathError('is a link, not a workspace file: give the path of an image file in the workspace');
  const file = path.isAbsolute(want) || /^[a-z]:\//i.test(want) ? path.resolve(want) : path.resolve(roots[0]!, want);
  const root = roots.find((r) => namedInside(file, [r]));
  if (!root)
    throw new ImagePathError(
      'is outside the workspace: only image files inside the workspace folders can be used (give a workspace-relative path)',
    );
  const label = path.relative(root, file).split(path.sep).join('/');
  const guarded = protectedSegment(label) ?? windowsAliasSegment(label);
  if (guarded) throw new ImagePathError(`lies in ${guarded}, which the tools never read`);
  const where = await checkInside(file, roots);
  if (!where.inside) throw new ImagePathError('leads outside the workspace through a symbolic link, so it is not read');
  if (!where.exists) throw new ImagePathError('does not exist');
  return { file, label };
}

/** Reads a checked file within the limit (the size is looked at before a byte is read). */
async function readImage(file: string, label: string, max: number): Promise<ImageInput> {
  const st = await fs.stat(file);
  if (!st.isFile()) throw new ImagePathError('is not a file');
  if (st.size > max)
    throw new ImagePathError(`is larger than ${Math.round((max / 1048576) * 10) / 10} MB, the image limit`);
  return { name: path.basename(label), bytes: await fs.readFile(file) };
}

const issue = (rule: string, field: string, message: string): ImageToolIssue => ({
  rule,
  field,
  message: `${message} (rule: ${rule})`,
});

function checkRequest(
  ctx: ImagePlanContext,
  r: ImageJobRequest,
  edit?: { images: string[]; mask?: string },
): { family: CatalogFamily | undefined; issues: ImageToolIssue[] } {
  const family = familyFor(ctx.catalog, r.model, 'image');
  const v = validateCatalogImage(family, {
    ...r,
    ...(edit ? { edit: true, images: edit.images, ...(edit.mask !== undefined ? { mask: edit.mask } : {}) } : {}),
  });
  return { family, issues: v.errors };
}

function requestOf(
  ctx: ImagePlanContext,
  i: { prompt: string; model?: string; size?: string; quality?: string; n?: number },
): ImageJobRequest {
  return {
    model: i.model?.trim() || ctx.defaultModel,
    prompt: i.prompt,
    ...(i.n !== undefined ? { n: i.n } : {}),
    ...(i.size?.trim() ? { size: i.size.trim() } : {}),
    ...(i.quality?.trim() ? { quality: i.quality.trim() } : {}),
  };
}

/** A `generate_image` call: checked against the model's family, nothing read or sent. */
export function planGenerate(input: unknown, ctx: ImagePlanContext): ImagePlan {
  const parsed = parseImageInput(generateImageInputSchema, input);
  if (!parsed.ok) return parsed;
  const i = parsed.value;
  const request: ImageJobRequest = {
    ...requestOf(ctx, i),
    ...(i.background?.trim() ? { background: i.background.trim() } : {}),
    ...(i.outputFormat?.trim() ? { outputFormat: i.outputFormat.trim() } : {}),
  };
  const { family, issues } = checkRequest(ctx, request);
  return issues.length ? { ok: false, issues } : { ok: true, operation: 'generate', request, family };
}

async function readInput(
  field: 'image' | 'mask',
  requested: string,
  ctx: ImagePlanContext,
  issues: ImageToolIssue[],
): Promise<{ input: ImageInput; label: string } | undefined> {
  try {
    const { file, label } = await resolveToolImage(requested, ctx.roots);
    return { input: await readImage(file, label, ctx.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES), label };
  } catch (e) {
    const why =
      e instanceof ImagePathError ? e.message : `cannot be read (${e instanceof Error ? e.message : String(e)})`;
    issues.push(issue(`${field}-file`, field, `${field} "${requested}" ${why}`));
    return undefined;
  }
}

/** An `edit_image` call: the request checked, the image and mask read and checked by their bytes. */
export async function planEdit(input: unknown, ctx: ImagePlanContext): Promise<ImagePlan> {
  const parsed = parseImageInput(editImageInputSchema, input);
  if (!parsed.ok) return parsed;
  const i = parsed.value;
  const request = requestOf(ctx, i);
  const mask = i.mask?.trim() ? i.mask : undefined;
  const { family, issues } = checkRequest(ctx, request, { images: [i.image], ...(mask ? { mask } : {}) });
  const image = await readInput('image', i.image, ctx, issues);
  const m = mask !== undefined ? await readInput('mask', mask, ctx, issues) : undefined;
  if (issues.length || !image || (mask !== undefined && !m)) return { ok: false, issues };
  try {
    checkEditInputs({ images: [image.input], ...(m ? { mask: m.input } : {}) }, ctx.maxBytes);
  } catch (e) {
    const field = (e as { field?: string }).field === 'mask' ? 'mask' : 'image';
    return { ok: false, issues: [issue(`${field}-check`, field, e instanceof Error ? e.message : String(e))] };
  }
  const inputs: ImageEditInputs = {
    images: [image.input],
    ...(m ? { mask: m.input } : {}),
    labels: [image.label, ...(m ? [m.label] : [])],
  };
  return { ok: true, operation: 'edit', request, family, inputs };
}
