/**
 * The checks before sending, read from the catalog (./catalog): a request for a known family is
 * held to what that family accepts; a model the catalog does not know gets the general checks of
 * api/video/videoRules (video) or the general image checks here, as before the catalog. Nothing
 * is sent with an error; each problem names its rule and field.
 */
import * as l10n from '@vscode/l10n';
import { validateVideoRequest, type VideoRuleIssue } from '../video/videoRules';
import type { CatalogFamily, ImageAccepts } from './catalog';

/** A video request as the wizard, the tools and the storyboard make it, before it has a wire shape. */
export interface CatalogVideoRequest {
  model: string;
  prompt: string;
  seconds?: number;
  aspectRatio?: string;
  resolution?: string;
  size?: string;
  mode?: string;
  audio?: boolean;
  /** Reference images (not frames): HTTPS links, base64 data URLs, or local paths. */
  references?: string[];
  firstFrame?: string;
  lastFrame?: string;
}

/** An image request (generation or edit) before it has a wire shape. */
export interface CatalogImageRequest {
  model: string;
  prompt: string;
  size?: string;
  quality?: string;
  n?: number;
  background?: string;
  outputFormat?: string;
  /** Reference images of a generation (Seedream) or the images an edit starts from. */
  images?: string[];
  /** An edit's mask (a PNG of the first image's size). */
  mask?: string;
  /** True for `/v1/images/edits`. */
  edit?: boolean;
}

export interface CatalogValidation {
  readonly family?: CatalogFamily;
  readonly errors: VideoRuleIssue[];
  readonly warnings: VideoRuleIssue[];
}

/** Whether an image input is a local file rather than a link or data the service can take. */
export function isLocalImage(ref: string): boolean {
  const s = ref.trim();
  return !/^https:\/\//i.test(s) && !/^data:/i.test(s) && !/^http:\/\//i.test(s);
}

function issue(rule: string, field: string, message: string): VideoRuleIssue {
  return { rule, field, message: l10n.t('{0} (rule: {1})', message, rule) };
}

/** Why `ref` cannot go into a slot that accepts `accepts`, or undefined. */
export function imageInputProblem(f: CatalogFamily, ref: string, accepts: ImageAccepts): string | undefined {
  const s = ref.trim();
  if (s === '') return l10n.t('is empty');
  if (accepts === 'file') return undefined;
  if (/^http:\/\//i.test(s)) return l10n.t('uses http: the service fetches only public HTTPS links');
  if (accepts === 'url' && !/^https:\/\//i.test(s))
    return isLocalImage(s)
      ? l10n.t('is a local image: {0} takes image URLs only (public HTTPS links); nothing is uploaded for you', f.name)
      : l10n.t('is base64 data: {0} takes image URLs only (public HTTPS links)', f.name);
  if (/^data:/i.test(s) && !/^data:image\/[A-Za-z0-9.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/s.test(s))
    return l10n.t('is a data URL but not a complete base64 image (data:image/<type>;base64,<data>)');
  return undefined;
}

function oneOf(
  out: VideoRuleIssue[],
  f: CatalogFamily,
  what: { rule: string; field: string; value: string | number | undefined; allowed?: readonly (string | number)[] },
): void {
  if (what.value === undefined || !what.allowed) return;
  if (what.allowed.includes(what.value)) return;
  out.push(
    issue(
      what.rule,
      what.field,
      l10n.t('{0} allows {1} {2}; got {3}', f.name, what.field, what.allowed.join(', '), String(what.value)),
    ),
  );
}

/** The images of a video request against the family's slots. */
function checkVideoImages(f: CatalogFamily, r: CatalogVideoRequest, errors: VideoRuleIssue[]): void {
  const refs = r.references ?? [];
  const slots: [string, string | undefined, CatalogFamily['firstFrame']][] = [
    ['firstFrame', r.firstFrame, f.firstFrame],
    ['lastFrame', r.lastFrame, f.lastFrame],
  ];
  for (const [field, value, slot] of slots) {
    if (value === undefined) continue;
    if (!slot) {
      errors.push(issue(`${field}-unsupported`, field, l10n.t('{0} takes no {1}', f.name, field)));
      continue;
    }
    const p = imageInputProblem(f, value, slot.accepts);
    if (p) errors.push(issue('image-input', field, l10n.t('The {0} {1}', field, p)));
  }
  if (r.lastFrame !== undefined && f.lastFrame?.needsFirst && r.firstFrame === undefined)
    errors.push(
      issue('last-needs-first', 'lastFrame', l10n.t('{0} takes a last frame only with a first frame', f.name)),
    );
  if (refs.length > 0 && !f.references)
    errors.push(issue('references-unsupported', 'references', l10n.t('{0} takes no reference images', f.name)));
  if (f.references) {
    const { min = 1, max } = f.references;
    if (refs.length > max || (refs.length > 0 && refs.length < min))
      errors.push(
        issue(
          'reference-count',
          'references',
          l10n.t('{0} takes {1} to {2} reference images; {3} given', f.name, min, max, refs.length),
        ),
      );
    refs.forEach((ref, i) => {
      const p = imageInputProblem(f, ref, f.references!.accepts);
      if (p) errors.push(issue('image-input', 'references', l10n.t('Reference image {0} {1}', i + 1, p)));
    });
  }
  const frames = r.firstFrame !== undefined || r.lastFrame !== undefined;
  if (frames && refs.length > 0 && f.framesWithReferences === false)
    errors.push(
      issue('frames-or-references', 'references', l10n.t('{0} takes frames or reference images, not both', f.name)),
    );
  if (!f.textInput && !frames && refs.length === 0)
    errors.push(issue('image-required', 'firstFrame', l10n.t('{0} needs an image to start from', f.name)));
}

/** A video request against its family, or the general rules when the catalog does not know the model. */
export function validateCatalogVideo(f: CatalogFamily | undefined, r: CatalogVideoRequest): CatalogValidation {
  if (!f) {
    const images = [...(r.firstFrame ? [r.firstFrame] : []), ...(r.references ?? [])];
    const v = validateVideoRequest({
      model: r.model,
      prompt: r.prompt,
      ...(r.seconds !== undefined ? { seconds: r.seconds } : {}),
      ...(r.aspectRatio !== undefined ? { aspect_ratio: r.aspectRatio } : {}),
      ...(r.resolution !== undefined ? { resolution: r.resolution } : {}),
      ...(images.length ? { image_urls: images } : {}),
    });
    return { errors: v.errors, warnings: v.warnings };
  }
  const errors: VideoRuleIssue[] = [];
  const warnings: VideoRuleIssue[] = [];
  if (r.prompt.trim() === '')
    errors.push(issue('prompt-required', 'prompt', l10n.t('The prompt is empty; describe the video to generate')));
  if (r.seconds !== undefined && (!Number.isInteger(r.seconds) || r.seconds < 1))
    errors.push(issue('seconds-integer', 'seconds', l10n.t('seconds must be a whole number of at least 1')));
  else oneOf(errors, f, { rule: 'seconds-family', field: 'seconds', value: r.seconds, allowed: f.durations });
  const unsupported = (field: keyof CatalogVideoRequest, has: unknown) => {
    if (r[field] !== undefined && !has)
      errors.push(issue(`${field}-unsupported`, field, l10n.t('{0} takes no {1}', f.name, field)));
  };
  unsupported('aspectRatio', f.aspectRatios);
  unsupported('resolution', f.resolutions);
  unsupported('size', f.sizes);
  unsupported('mode', f.modes);
  unsupported('audio', f.audio);
  oneOf(errors, f, {
    rule: 'aspect-ratio-family',
    field: 'aspectRatio',
    value: r.aspectRatio,
    allowed: f.aspectRatios,
  });
  oneOf(errors, f, { rule: 'resolution-family', field: 'resolution', value: r.resolution, allowed: f.resolutions });
  oneOf(errors, f, { rule: 'size-family', field: 'size', value: r.size, allowed: f.sizes });
  oneOf(errors, f, { rule: 'mode-family', field: 'mode', value: r.mode, allowed: f.modes });
  checkVideoImages(f, r, errors);
  return { family: f, errors, warnings };
}

const SIZE = /^\d{2,5}x\d{2,5}$/;
/** The most images any known image API makes in one request; the general cap. */
export const GENERAL_MAX_IMAGES = 10;

function checkImageInputs(f: CatalogFamily | undefined, r: CatalogImageRequest, errors: VideoRuleIssue[]): void {
  const imgs = r.images ?? [];
  if (r.edit && imgs.length === 0)
    errors.push(issue('edit-image-required', 'images', l10n.t('An edit needs at least one image')));
  if (!f) return;
  if (r.edit) {
    if (!f.edits) errors.push(issue('edits-unsupported', 'images', l10n.t('{0} does not edit images', f.name)));
    else if (imgs.length > f.edits.maxImages)
      errors.push(
        issue(
          'edit-image-count',
          'images',
          l10n.t('{0} edits at most {1} images; {2} given', f.name, f.edits.maxImages, imgs.length),
        ),
      );
    if (r.mask !== undefined && f.edits && !f.edits.mask)
      errors.push(issue('mask-unsupported', 'mask', l10n.t('{0} takes no mask', f.name)));
    return;
  }
  if (imgs.length === 0) return;
  if (!f.references) {
    errors.push(issue('references-unsupported', 'images', l10n.t('{0} takes no reference images', f.name)));
    return;
  }
  if (imgs.length > f.references.max)
    errors.push(
      issue(
        'reference-count',
        'images',
        l10n.t('{0} takes at most {1} reference images; {2} given', f.name, f.references.max, imgs.length),
      ),
    );
  imgs.forEach((ref, i) => {
    const p = imageInputProblem(f, ref, f.references!.accepts);
    if (p) errors.push(issue('image-input', 'images', l10n.t('Image {0} {1}', i + 1, p)));
  });
}

/** An image request against its family, or the general image checks for a model the catalog does not know. */
export function validateCatalogImage(f: CatalogFamily | undefined, r: CatalogImageRequest): CatalogValidation {
  const errors: VideoRuleIssue[] = [];
  const warnings: VideoRuleIssue[] = [];
  if (r.model.trim() === '') errors.push(issue('model-required', 'model', l10n.t('An image model is required')));
  if (r.prompt.trim() === '')
    errors.push(issue('prompt-required', 'prompt', l10n.t('The prompt is empty; describe the image')));
  const maxN = f?.n?.max ?? GENERAL_MAX_IMAGES;
  if (r.n !== undefined && (!Number.isInteger(r.n) || r.n < 1))
    errors.push(issue('n-integer', 'n', l10n.t('n must be a whole number of at least 1; got {0}', String(r.n))));
  else if (r.n !== undefined && r.n > maxN)
    errors.push(
      issue(
        'n-max',
        'n',
        l10n.t('{0} makes at most {1} images per request; {2} asked', f?.name ?? l10n.t('An image model'), maxN, r.n),
      ),
    );
  if (r.size !== undefined) {
    const s = r.size.trim();
    const listed = f?.sizes?.includes(s) === true;
    const pattern = SIZE.test(s);
    if (f?.sizes && !listed && !(f.sizePattern && pattern))
      errors.push(issue('size-family', 'size', l10n.t('{0} allows size {1}; got {2}', f.name, f.sizes.join(', '), s)));
    else if (!f?.sizes && !pattern && s !== 'auto')
      errors.push(issue('size-format', 'size', l10n.t('size must look like 1024x1024 (or auto); got "{0}"', s)));
  }
  if (f) {
    oneOf(errors, f, { rule: 'quality-family', field: 'quality', value: r.quality, allowed: f.qualities });
    oneOf(errors, f, { rule: 'background-family', field: 'background', value: r.background, allowed: f.backgrounds });
    oneOf(errors, f, { rule: 'format-family', field: 'outputFormat', value: r.outputFormat, allowed: f.outputFormats });
    if (r.quality !== undefined && !f.qualities)
      errors.push(issue('quality-unsupported', 'quality', l10n.t('{0} takes no quality', f.name)));
    if (r.background !== undefined && !f.backgrounds)
      errors.push(issue('background-unsupported', 'background', l10n.t('{0} takes no background', f.name)));
  }
  checkImageInputs(f, r, errors);
  return { ...(f ? { family: f } : {}), errors, warnings };
}
