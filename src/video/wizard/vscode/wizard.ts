import * as vscode from 'vscode';
import {
  KNOWN_VIDEO_MODELS,
  RESOLUTION_ADVICE,
  referenceImageProblem,
  rulesFor,
  secondsChoices,
  type VideoCreateRequest,
  type VideoModelRules,
} from '../../../api/video/videoRules';
import { familyFor, type Catalog } from '../../../api/catalog/catalog';
import { familyVideoRules } from '../../../api/catalog/familyVideo';
import type { Settings } from '../../../platform/settings';
import { IMAGE_GLOB, imageLabel, imageToDataUrl } from '../../base/vscode/images';
import { BACK, TOTAL, input, pick, title, type PickItem, type Step } from './quickInput';

/** What the wizard produces: a request ready for validation, and labels of its images. */
export interface WizardResult {
  request: VideoCreateRequest;
  imageLabels: string[];
}

/** Where the images of the request come from, before they are encoded. */
type ImageChoice = { kind: 'none' } | { kind: 'files'; uris: vscode.Uri[] } | { kind: 'urls'; urls: string[] };

/** The model's choices: its catalog family's when it has one, else the spec's (or the general ones). */
function rulesOf(
  w: Pick<WizardRun, 'catalog'>,
  model: string,
): VideoModelRules & { urlOnly?: boolean; family?: string } {
  const f = w.catalog ? familyFor(w.catalog, model, 'video') : undefined;
  return f ? { ...familyVideoRules(f, model), family: f.name } : rulesFor(model);
}

function modelDetail(w: WizardRun, model: string): string {
  const r = rulesOf(w, model);
  if (r.family !== undefined) {
    const images = r.urlOnly
      ? vscode.l10n.t('images as HTTPS links only')
      : vscode.l10n.t('up to {0} images', r.maxImages);
    return vscode.l10n.t('{0} (catalog) · {1} s · {2}', r.family, r.suggestedSeconds.join(', '), images);
  }
  if (!r.known) return vscode.l10n.t('Rules not described by the spec: only the general checks apply.');
  if (!r.textToVideo)
    return vscode.l10n.t('Exactly one reference image · up to {0} s · {1}', r.maxSeconds, r.aspectRatios.join(', '));
  return vscode.l10n.t(
    'Text, one image or up to {0} images · up to {1} s ({2} s with several images)',
    r.maxImages,
    r.maxSeconds,
    r.maxSecondsMulti ?? r.maxSeconds,
  );
}

/** Splits pasted URLs (spaces, commas or new lines) and names the first bad one. */
export function parseUrlList(text: string): { urls: string[]; problem?: string } {
  const urls = text
    .split(/[\s,]+/)
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0) return { urls, problem: vscode.l10n.t('Enter at least one HTTPS link.') };
  for (const u of urls) {
    const p = referenceImageProblem(u);
    if (p) return { urls, problem: vscode.l10n.t('{0} {1}', u.slice(0, 80), p) };
  }
  return { urls };
}

function countOf(images: ImageChoice): number {
  return images.kind === 'files' ? images.uris.length : images.kind === 'urls' ? images.urls.length : 0;
}

/** The price line of a choice (from cached prices, no request), shown beside durations and resolutions. */
type PriceOf = (r: { model: string; seconds: number; resolution: string }) => Promise<string>;

/** The wizard's inputs and the choices made so far (each step starts from them, so Back keeps them). */
interface WizardRun {
  settings: Settings;
  /** The media catalog: a model of one of its families is offered only what the family takes. */
  catalog: Catalog | undefined;
  models: string[];
  fromGateway: boolean;
  preselected: vscode.Uri[];
  price: PriceOf;
  model: string;
  prompt: string;
  images: ImageChoice;
  seconds: number;
  aspect: string;
  resolution: string;
}

/** A step shows itself again (a sub-step was cancelled, or the images do not fit the model). */
const AGAIN = Symbol('again');
/** What a step ends with: on, back, again, or undefined when the user cancelled. */
type Outcome = 'next' | typeof BACK | typeof AGAIN | undefined;

/** A pick's answer applied: a value is kept and the wizard goes on; Back and cancel pass through. */
function settle<T>(r: Step<T>, keep: (v: T) => void): Outcome {
  if (r === undefined) return undefined;
  if (r === BACK) return BACK;
  keep(r as T);
  return 'next';
}

/**
 * The multi-step quick input: model, prompt, reference images, seconds, aspect ratio, resolution.
 * Each step offers only what the chosen model allows, starting from the settings' defaults, with
 * the spec's advice beside the choices. `preselected` are image files picked in the explorer.
 * Undefined when the user cancels.
 */
export async function runVideoWizard(
  settings: Settings,
  listModels: () => Promise<string[]>,
  preselected: vscode.Uri[] = [],
  price: PriceOf = () => Promise.resolve(''),
  catalog?: Catalog,
): Promise<WizardResult | undefined> {
  const w = { ...(await startRun(settings, listModels, preselected, price)), catalog };
  const steps = [modelStep, promptStep, imagesStep, secondsStep, aspectStep, resolutionStep];
  for (let step = 1; step <= TOTAL;) {
    const r = await steps[step - 1]!(w);
    if (r === AGAIN) continue;
    if (r === undefined) return undefined;
    step = r === BACK ? Math.max(1, step - 1) : step + 1;
  }
  return resultOf(w);
}

/** The gateway's video models (the spec's when it lists none), and the settings' defaults as the first choices. */
async function startRun(
  settings: Settings,
  listModels: () => Promise<string[]>,
  preselected: vscode.Uri[],
  price: PriceOf,
): Promise<Omit<WizardRun, 'catalog'>> {
  let models: string[] = [];
  let fromGateway = true;
  try {
    models = await listModels();
  } catch {
    fromGateway = false;
  }
  if (models.length === 0) {
    fromGateway = false;
    models = [...KNOWN_VIDEO_MODELS];
  }
  if (settings.videoModel && !models.includes(settings.videoModel)) models.push(settings.videoModel);
  return {
    settings,
    models,
    fromGateway,
    preselected,
    price,
    model: settings.videoModel || models[0]!,
    prompt: '',
    images: preselected.length ? { kind: 'files', uris: preselected } : { kind: 'none' },
    seconds: settings.video.seconds,
    aspect: settings.video.aspectRatio,
    resolution: settings.video.resolution,
  };
}

async function modelStep(w: WizardRun): Promise<Outcome> {
  const items = w.models.map((m) => ({
    label: m,
    description: m === w.settings.videoModel ? vscode.l10n.t('default') : undefined,
    detail: modelDetail(w, m),
    value: m,
  }));
  const ph = w.fromGateway
    ? vscode.l10n.t("Video model (from the gateway's model list)")
    : vscode.l10n.t("Video model (the gateway's list was unavailable; these are the models the spec names)");
  return settle(await pick(1, ph, items, w.model), (v) => (w.model = v));
}

async function promptStep(w: WizardRun): Promise<Outcome> {
  const r = await input(2, vscode.l10n.t('Describe the video: subject, motion, camera, style.'), w.prompt, (v) =>
    v.trim() === '' ? vscode.l10n.t('The prompt is required.') : undefined,
  );
  return settle(r, (v) => (w.prompt = v.trim()));
}

/** The ways to give reference images that the model allows. */
function imageItems(w: WizardRun, textToVideo: boolean, urlOnly: boolean): PickItem<string>[] {
  const items: PickItem<string>[] = [];
  // A model that takes links only gets no local file: nothing is uploaded behind the user's back.
  if (w.preselected.length && !urlOnly) {
    items.push({
      label: vscode.l10n.t('$(file-media) The {0} selected image(s)', w.preselected.length),
      detail: w.preselected.map(imageLabel).join(', '),
      value: 'selected',
    });
  }
  if (textToVideo) items.push({ label: vscode.l10n.t('$(circle-slash) None (text to video)'), value: 'none' });
  if (!urlOnly)
    items.push({
      label: vscode.l10n.t('$(files) Image files from the workspace…'),
      detail: vscode.l10n.t('Sent as complete base64 data URLs.'),
      value: 'files',
    });
  items.push({
    label: vscode.l10n.t('$(link) HTTPS links…'),
    detail: vscode.l10n.t('Public direct links to image files (not pages that show them).'),
    value: 'urls',
  });
  return items;
}

async function imagesStep(w: WizardRun): Promise<Outcome> {
  const rules = rulesOf(w, w.model);
  const urlOnly = rules.urlOnly === true;
  if (rules.maxImages === 0) return settle<ImageChoice>({ kind: 'none' }, (v) => (w.images = v));
  const limit = urlOnly
    ? vscode.l10n.t('{0} takes images as public HTTPS links only; a local file is not uploaded.', w.model)
    : rules.known
      ? rules.minImages === rules.maxImages
        ? vscode.l10n.t('{0} needs exactly one reference image.', w.model)
        : vscode.l10n.t(
            '{0}: none, one or up to {1} images; with several images at most {2} s.',
            w.model,
            rules.maxImages,
            rules.maxSecondsMulti ?? rules.maxSeconds,
          )
      : vscode.l10n.t('Reference images');
  const active =
    w.preselected.length && !urlOnly ? 'selected' : rules.textToVideo ? 'none' : urlOnly ? 'urls' : 'files';
  const r = await pick(3, limit, imageItems(w, rules.textToVideo, urlOnly), active);
  if (r === undefined) return undefined;
  if (r === BACK) return BACK;
  const chosen = await imagesOf(w, r, rules.maxImages);
  // Cancelling a sub-step shows the image choice again.
  if (!chosen) return AGAIN;
  w.images = chosen;
  const n = countOf(w.images);
  if (rules.known && (n < rules.minImages || n > rules.maxImages)) {
    void vscode.window.showWarningMessage(
      rules.minImages === rules.maxImages
        ? vscode.l10n.t('{0} only supports exactly one reference image; {1} chosen.', w.model, n)
        : vscode.l10n.t('{0} accepts at most {1} reference images; {2} chosen.', w.model, rules.maxImages, n),
    );
    return AGAIN;
  }
  return 'next';
}

/** The images of a choice: the sub-step for files or links; undefined when it was cancelled. */
async function imagesOf(w: WizardRun, choice: string, maxImages: number): Promise<ImageChoice | undefined> {
  if (choice === 'none') return { kind: 'none' };
  if (choice === 'selected') return { kind: 'files', uris: w.preselected };
  if (choice === 'files') {
    const chosen = await pickWorkspaceImages(maxImages);
    return chosen ? { kind: 'files', uris: chosen } : undefined;
  }
  if (choice === 'urls') {
    const prev = w.images.kind === 'urls' ? w.images.urls.join(' ') : '';
    const t = await input(
      3,
      vscode.l10n.t('HTTPS links to the reference images, separated by spaces.'),
      prev,
      (v) => parseUrlList(v).problem,
    );
    return typeof t === 'string' ? { kind: 'urls', urls: parseUrlList(t).urls } : undefined;
  }
  return w.images;
}

async function secondsStep(w: WizardRun): Promise<Outcome> {
  const n = countOf(w.images);
  const rules = rulesOf(w, w.model);
  const choices = rules.family !== undefined ? [...rules.suggestedSeconds] : secondsChoices(w.model, n);
  const multi = n > 1 && rules.maxSecondsMulti !== undefined;
  const items = await Promise.all(
    choices.map(async (s) => ({
      label: vscode.l10n.t('{0} seconds', s),
      description: s === w.settings.video.seconds ? vscode.l10n.t('default') : undefined,
      detail: (await w.price({ model: w.model, seconds: s, resolution: w.resolution })) || undefined,
      value: s,
    })),
  );
  const ph = multi
    ? vscode.l10n.t(
        'Duration. With several reference images {0} makes at most {1} s (longer is processed as {1} s).',
        w.model,
        rules.maxSecondsMulti ?? 10,
      )
    : vscode.l10n.t('Duration (at most {0} s).', rules.maxSeconds);
  // A default the model does not offer here (15 s with several images) falls to the nearest below.
  const fallback = [...choices].reverse().find((c) => c <= w.seconds) ?? choices[0];
  const r = await pick(4, ph, items, choices.includes(w.seconds) ? w.seconds : fallback);
  return settle(r, (v) => (w.seconds = v));
}

async function aspectStep(w: WizardRun): Promise<Outcome> {
  const allowed = rulesOf(w, w.model).aspectRatios;
  // A family without aspect ratios (Wan, Hailuo: the resolution decides) skips the step.
  if (allowed.length === 0) return 'next';
  const items = allowed.map((a) => ({
    label: a,
    description: a === w.settings.video.aspectRatio ? vscode.l10n.t('default') : undefined,
    value: a,
  }));
  const ph =
    w.model === 'vendor-video-1.5'
      ? vscode.l10n.t('Aspect ratio ({0} allows only 16:9 and 9:16)', w.model)
      : vscode.l10n.t('Aspect ratio');
  return settle(await pick(5, ph, items, allowed.includes(w.aspect) ? w.aspect : allowed[0]), (v) => (w.aspect = v));
}

async function resolutionStep(w: WizardRun): Promise<Outcome> {
  const resolutions = rulesOf(w, w.model).resolutions;
  if (resolutions.length === 0) return 'next';
  const items = await Promise.all(
    resolutions.map(async (res) => ({
      label: res,
      description: res === w.settings.video.resolution ? vscode.l10n.t('default') : undefined,
      detail: [RESOLUTION_ADVICE[res], await w.price({ model: w.model, seconds: w.seconds, resolution: res })]
        .filter(Boolean)
        .join(' · '),
      value: res,
    })),
  );
  const ph = vscode.l10n.t('Resolution: 480p for bulk material, 720p for covers and key visuals');
  return settle(await pick(6, ph, items, w.resolution), (v) => (w.resolution = v));
}

/** The request the choices make, its workspace images read as data URLs. */
async function resultOf(w: WizardRun): Promise<WizardResult> {
  const labels: string[] = [];
  const urls: string[] = [];
  if (w.images.kind === 'files') {
    for (const uri of w.images.uris) {
      urls.push(await imageToDataUrl(uri));
      labels.push(imageLabel(uri));
    }
  } else if (w.images.kind === 'urls') {
    urls.push(...w.images.urls);
    labels.push(...w.images.urls);
  }
  const request: VideoCreateRequest = {
    model: w.model,
    prompt: w.prompt,
    seconds: w.seconds,
    aspect_ratio: w.aspect,
    resolution: w.resolution,
  };
  // Spec 2.4: image_urls only, never together with its alias `images`.
  if (urls.length) request.image_urls = urls;
  return { request, imageLabels: labels };
}

/** Image files of the workspace, several selectable; undefined when cancelled. */
async function pickWorkspaceImages(max: number): Promise<vscode.Uri[] | undefined> {
  const files = await vscode.workspace.findFiles(IMAGE_GLOB, '**/node_modules/**', 2000);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No PNG, JPEG, WebP, GIF or BMP files in the workspace. Use HTTPS links instead.'),
    );
    return undefined;
  }
  const items = files.map((uri) => ({ label: imageLabel(uri), uri })).sort((a, b) => a.label.localeCompare(b.label));
  const chosen = await vscode.window.showQuickPick(items, {
    title: title(),
    canPickMany: true,
    ignoreFocusOut: true,
    placeHolder: Number.isFinite(max)
      ? vscode.l10n.t('Reference images (at most {0})', max)
      : vscode.l10n.t('Reference images'),
  });
  if (!chosen || chosen.length === 0) return undefined;
  return chosen.map((c) => c.uri);
}
