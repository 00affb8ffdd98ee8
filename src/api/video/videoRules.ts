/**
 * Client-side rules for video creation (service spec 2.4 and 8), checked before anything is sent
 * so that a request the gateway would reject (or bill and then fail) never leaves the editor.
 * Each problem names the rule it breaks; the two models the spec describes get their own table,
 * any other model only the general rules.
 */
import * as l10n from '@vscode/l10n';

/** A video creation request as the spec's section 2.4 defines it. */
export interface VideoCreateRequest {
  model: string;
  prompt: string;
  seconds?: number;
  aspect_ratio?: string;
  resolution?: string;
  image_urls?: string[];
  images?: string[];
  input_reference?: string | { image_url: string };
  reference_images?: string[];
}

/** What one model allows (spec 2.4 "Model-specific rules"). */
export interface VideoModelRules {
  readonly model: string;
  /** False for models whose rules the spec does not give: only the general rules apply. */
  readonly known: boolean;
  readonly textToVideo: boolean;
  readonly minImages: number;
  readonly maxImages: number;
  /** Longest duration with no or one reference image. */
  readonly maxSeconds: number;
  /** Longest duration with several references; larger values are processed as this (a clamp). */
  readonly maxSecondsMulti?: number;
  readonly suggestedSeconds: readonly number[];
  readonly suggestedSecondsMulti: readonly number[];
  readonly aspectRatios: readonly string[];
  readonly resolutions: readonly string[];
}

/** The models spec 2.4 names, used as a fallback when `GET /v1/models` lists no video model. */
export const KNOWN_VIDEO_MODELS = ['vendor-image-video', 'vendor-video-1.5'] as const;

const RULES: Readonly<Record<string, VideoModelRules>> = {
  'vendor-image-video': {
    model: 'vendor-image-video',
    known: true,
    textToVideo: true,
    minImages: 0,
    maxImages: 7,
    maxSeconds: 15,
    maxSecondsMulti: 10,
    suggestedSeconds: [4, 6, 8, 10, 12, 15],
    suggestedSecondsMulti: [4, 6, 8, 10],
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'],
    resolutions: ['720p', '480p'],
  },
  'vendor-video-1.5': {
    model: 'vendor-video-1.5',
    known: true,
    textToVideo: false,
    minImages: 1,
    maxImages: 1,
    maxSeconds: 15,
    suggestedSeconds: [4, 6, 8, 10, 12, 15],
    suggestedSecondsMulti: [],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '480p'],
  },
};

/** Every aspect ratio the spec mentions, offered for models it does not describe. */
export const ALL_ASPECT_RATIOS: readonly string[] = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3'];
/** The spec's common resolutions with its advice. */
export const RESOLUTION_ADVICE: Readonly<Record<string, string>> = {
  '480p': 'lower resolution: for bulk material',
  '720p': 'higher resolution: for covers and key visuals',
};
/** Longest duration the spec mentions for any model; the general cap for unknown models. */
export const GENERAL_MAX_SECONDS = 15;

/** The rules of `model`; unknown models get permissive general rules with `known: false`. */
export function rulesFor(model: string): VideoModelRules {
  const known = RULES[model];
  if (known) return known;
  return {
    model,
    known: false,
    textToVideo: true,
    minImages: 0,
    maxImages: Number.POSITIVE_INFINITY,
    maxSeconds: GENERAL_MAX_SECONDS,
    suggestedSeconds: [4, 6, 8, 10, 12, 15],
    suggestedSecondsMulti: [4, 6, 8, 10],
    aspectRatios: ALL_ASPECT_RATIOS,
    resolutions: ['720p', '480p'],
  };
}

/** One broken rule: `rule` is a stable name (for tests and logs), `message` says it to a user. */
export interface VideoRuleIssue {
  readonly rule: string;
  readonly field: string;
  readonly message: string;
}

export interface VideoValidation {
  /** Problems that stop the request from being sent. */
  readonly errors: VideoRuleIssue[];
  /** Things the gateway will change or that go against the spec's advice; the request is still sent. */
  readonly warnings: VideoRuleIssue[];
  /** The request as it will be sent: trimmed prompt, seconds clamped where the spec says so. */
  readonly request: VideoCreateRequest;
}

/** The reference images of a request, whichever of the four fields carries them. */
export function referenceImages(req: VideoCreateRequest): string[] {
  const out: string[] = [];
  if (req.image_urls) out.push(...req.image_urls);
  if (req.images) out.push(...req.images);
  if (req.input_reference !== undefined) {
    out.push(typeof req.input_reference === 'string' ? req.input_reference : req.input_reference.image_url);
  }
  if (req.reference_images) out.push(...req.reference_images);
  return out;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why `ref` is not a usable reference image (spec 2.4: public HTTPS URL or complete base64 data URL). */
export function referenceImageProblem(ref: string): string | undefined {
  const s = ref.trim();
  if (s.length === 0) return l10n.t('is empty');
  if (s.startsWith('data:')) {
    const m = /^data:(image\/[A-Za-z0-9.+-]+);base64,(.*)$/s.exec(s);
    if (!m) return l10n.t('is a data URL but not a complete base64 image data URL (data:image/<type>;base64,<data>)');
    const data = m[2] ?? '';
    if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data))
      return l10n.t('is a data URL whose base64 data is incomplete or invalid');
    return undefined;
  }
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return l10n.t('is neither an HTTPS URL nor a base64 data URL');
  }
  if (u.protocol !== 'https:')
    return l10n.t(
      'uses {0}: the service fetches only public HTTPS direct links (or send the image as base64)',
      u.protocol.replace(':', ''),
    );
  return undefined;
}

function issue(rule: string, field: string, message: string): VideoRuleIssue {
  return { rule, field, message: l10n.t('{0} (rule: {1})', message, rule) };
}

/** What the checks of one request share: the input, the request as it will be sent, its model's rules. */
interface VideoCheck {
  input: VideoCreateRequest;
  request: VideoCreateRequest;
  rules: ReturnType<typeof rulesFor>;
  /** The number of reference images. */
  n: number;
  errors: VideoRuleIssue[];
  warnings: VideoRuleIssue[];
}

/**
 * Checks `input` against the general rules and the rules of its model (spec 2.4, 7, 8). Never
 * throws; the caller decides what to do with errors. The returned request has the clamp of spec 8
 * applied (several references with more than 10 s: sent as 10, with a warning).
 */
export function validateVideoRequest(input: VideoCreateRequest): VideoValidation {
  const errors: VideoRuleIssue[] = [];
  const warnings: VideoRuleIssue[] = [];
  const request: VideoCreateRequest = { ...input, model: input.model.trim(), prompt: input.prompt.trim() };

  if (request.model.length === 0) errors.push(issue('model-required', 'model', l10n.t('A video model is required')));
  if (request.prompt.length === 0)
    errors.push(issue('prompt-required', 'prompt', l10n.t('The prompt is empty; describe the video to generate')));
  checkExclusive(input, errors);

  const refs = referenceImages(input);
  refs.forEach((ref, i) => {
    const p = referenceImageProblem(ref);
    if (p) errors.push(issue('reference-image-format', 'image_urls', l10n.t('Reference image {0} {1}', i + 1, p)));
  });

  const c: VideoCheck = { input, request, rules: rulesFor(request.model), n: refs.length, errors, warnings };
  checkReferenceCount(c);
  checkSeconds(c);
  checkAspectRatio(c);
  checkResolution(c);
  return { errors, warnings, request };
}

/** Fields that are two names of one thing: only one may be sent. */
function checkExclusive(input: VideoCreateRequest, errors: VideoRuleIssue[]): void {
  if (input.image_urls !== undefined && input.images !== undefined) {
    errors.push(
      issue(
        'images-exclusive',
        'images',
        l10n.t('image_urls and images must not be sent together (images is only an alias of image_urls)'),
      ),
    );
  }
  if (input.input_reference !== undefined && input.reference_images !== undefined) {
    errors.push(
      issue(
        'reference-exclusive',
        'reference_images',
        l10n.t('input_reference and reference_images must not be sent together'),
      ),
    );
  }
}

/** The number of reference images the model takes. */
function checkReferenceCount({ rules, n, errors }: VideoCheck): void {
  if (rules.known) {
    if (n === 0 && !rules.textToVideo) {
      errors.push(
        issue(
          'text-to-video',
          'image_urls',
          l10n.t(
            '{0} only supports exactly one reference image; text-to-video is not available for it: add one image or use vendor-image-video',
            rules.model,
          ),
        ),
      );
    } else if (rules.minImages === rules.maxImages && n !== rules.minImages) {
      errors.push(
        issue(
          'reference-count',
          'image_urls',
          l10n.t('{0} only supports exactly one reference image; {1} given', rules.model, n),
        ),
      );
    } else if (n > rules.maxImages) {
      errors.push(
        issue(
          'reference-count',
          'image_urls',
          l10n.t('{0} accepts at most {1} reference images; {2} given', rules.model, rules.maxImages, n),
        ),
      );
    }
  }
}

/** The duration: whole, within the model's maximum, clamped with several references. */
function checkSeconds({ input, request, rules, n, errors, warnings }: VideoCheck): void {
  if (input.seconds !== undefined) {
    const s = input.seconds;
    if (!Number.isInteger(s) || s < 1) {
      errors.push(
        issue('seconds-integer', 'seconds', l10n.t('seconds must be a whole number of at least 1; got {0}', String(s))),
      );
    } else if (s > rules.maxSeconds) {
      errors.push(
        issue(
          'seconds-max',
          'seconds',
          l10n.t(
            '{0} lasts at most {1} s; got {2}',
            rules.known ? rules.model : l10n.t('A video'),
            rules.maxSeconds,
            s,
          ),
        ),
      );
    } else if (n > 1 && rules.maxSecondsMulti !== undefined && s > rules.maxSecondsMulti) {
      request.seconds = rules.maxSecondsMulti;
      warnings.push(
        issue(
          'seconds-multi-clamp',
          'seconds',
          l10n.t(
            'With several reference images {0} makes at most {1} s; {2} s is sent as {1} s',
            rules.model,
            rules.maxSecondsMulti,
            s,
          ),
        ),
      );
    } else if (rules.known) {
      const suggested =
        n > 1 && rules.suggestedSecondsMulti.length > 0 ? rules.suggestedSecondsMulti : rules.suggestedSeconds;
      if (!suggested.includes(s)) {
        warnings.push(
          issue(
            'seconds-suggested',
            'seconds',
            l10n.t('{0} s is not one of the suggested durations for {1} ({2})', s, rules.model, suggested.join(', ')),
          ),
        );
      }
    }
  }
}

function checkAspectRatio({ input, request, rules, errors }: VideoCheck): void {
  if (input.aspect_ratio !== undefined) {
    const a = input.aspect_ratio.trim();
    if (!/^\d{1,2}:\d{1,2}$/.test(a)) {
      errors.push(
        issue(
          'aspect-ratio-format',
          'aspect_ratio',
          l10n.t('aspect_ratio must look like 16:9; got "{0}"', input.aspect_ratio),
        ),
      );
    } else if (rules.known && !rules.aspectRatios.includes(a)) {
      errors.push(
        issue(
          'aspect-ratio-model',
          'aspect_ratio',
          l10n.t('{0} allows the aspect ratios {1}; got {2}', rules.model, rules.aspectRatios.join(', '), a),
        ),
      );
    } else {
      request.aspect_ratio = a;
    }
  }
}

function checkResolution({ input, request, rules, errors, warnings }: VideoCheck): void {
  if (input.resolution !== undefined) {
    const r = input.resolution.trim();
    if (!/^\d{3,4}p$/.test(r)) {
      errors.push(
        issue('resolution-format', 'resolution', l10n.t('resolution must look like 720p; got "{0}"', input.resolution)),
      );
    } else {
      request.resolution = r;
      if (!rules.resolutions.includes(r)) {
        warnings.push(
          issue(
            'resolution-common',
            'resolution',
            l10n.t('{0} is not one of the common resolutions (720p, 480p); the gateway may refuse it', r),
          ),
        );
      }
    }
  }
}

/** Durations to offer for `model` with `imageCount` references, largest allowed last. */
export function secondsChoices(model: string, imageCount: number): number[] {
  const r = rulesFor(model);
  if (imageCount > 1 && r.suggestedSecondsMulti.length > 0) return [...r.suggestedSecondsMulti];
  return [...r.suggestedSeconds];
}
