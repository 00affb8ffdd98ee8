import * as vscode from 'vscode';
import {
  KNOWN_VIDEO_MODELS,
  RESOLUTION_ADVICE,
  referenceImageProblem,
  rulesFor,
  secondsChoices,
  type VideoCreateRequest,
} from '../../../api/video/videoRules';
import type { Settings } from '../../../platform/settings';
import { IMAGE_GLOB, imageLabel, imageToDataUrl } from '../../base/vscode/images';

/** What the wizard produces: a request ready for validation, and labels of its images. */
export interface WizardResult {
  request: VideoCreateRequest;
  imageLabels: string[];
}

/** Where the images of the request come from, before they are encoded. */
type ImageChoice = { kind: 'none' } | { kind: 'files'; uris: vscode.Uri[] } | { kind: 'urls'; urls: string[] };

const BACK = Symbol('back');
type Step<T> = T | typeof BACK | undefined;

interface PickItem<T> extends vscode.QuickPickItem {
  value: T;
}

const TOTAL = 6;

function title(): string {
  return vscode.l10n.t('Gateway Studio: Generate Video');
}

/** One quick-pick step with a Back button (from step 2 on); undefined when the user cancels. */
function pick<T>(step: number, placeholder: string, items: PickItem<T>[], active?: T): Promise<Step<T>> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<PickItem<T>>();
    qp.title = title();
    qp.step = step;
    qp.totalSteps = TOTAL;
    qp.placeholder = placeholder;
    qp.items = items;
    qp.ignoreFocusOut = true;
    const act = items.find((i) => i.value === active);
    if (act) qp.activeItems = [act];
    if (step > 1) qp.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: Step<T>) => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    qp.onDidAccept(() => finish(qp.selectedItems[0]?.value));
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

/** One input-box step with a Back button; `check` returns why a value is refused. */
function input(
  step: number,
  prompt: string,
  value: string,
  check: (v: string) => string | undefined,
  placeholder?: string,
): Promise<Step<string>> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = title();
    box.step = step;
    box.totalSteps = TOTAL;
    box.prompt = prompt;
    box.value = value;
    box.placeholder = placeholder;
    box.ignoreFocusOut = true;
    if (step > 1) box.buttons = [vscode.QuickInputButtons.Back];
    let done = false;
    const finish = (v: Step<string>) => {
      if (done) return;
      done = true;
      resolve(v);
      box.dispose();
    };
    box.onDidChangeValue((v) => {
      box.validationMessage = v.trim() === '' ? undefined : check(v);
    });
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    box.onDidAccept(() => {
      const problem = check(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

function modelDetail(model: string): string {
  const r = rulesFor(model);
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
  /** The price line of a choice (from cached prices, no request), shown beside durations and resolutions. */
  price: (r: { model: string; seconds: number; resolution: string }) => Promise<string> = () => Promise.resolve(''),
): Promise<WizardResult | undefined> {
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

  let model = settings.videoModel || models[0]!;
  let prompt = '';
  let images: ImageChoice = preselected.length ? { kind: 'files', uris: preselected } : { kind: 'none' };
  let seconds = settings.video.seconds;
  let aspect = settings.video.aspectRatio;
  let resolution = settings.video.resolution;

  for (let step = 1; step <= TOTAL;) {
    let r: Step<unknown>;
    switch (step) {
      case 1: {
        const items = models.map((m) => ({
          label: m,
          description: m === settings.videoModel ? vscode.l10n.t('default') : undefined,
          detail: modelDetail(m),
          value: m,
        }));
        const ph = fromGateway
          ? vscode.l10n.t("Video model (from the gateway's model list)")
          : vscode.l10n.t("Video model (the gateway's list was unavailable; these are the models the spec names)");
        r = await pick(1, ph, items, model);
        if (typeof r === 'string') model = r;
        break;
      }
      case 2:
        r = await input(2, vscode.l10n.t('Describe the video: subject, motion, camera, style.'), prompt, (v) =>
          v.trim() === '' ? vscode.l10n.t('The prompt is required.') : undefined,
        );
        if (typeof r === 'string') prompt = r.trim();
        break;
      case 3: {
        const rules = rulesFor(model);
        const items: PickItem<string>[] = [];
        if (preselected.length) {
          items.push({
            label: vscode.l10n.t('$(file-media) The {0} selected image(s)', preselected.length),
            detail: preselected.map(imageLabel).join(', '),
            value: 'selected',
          });
        }
        if (rules.textToVideo)
          items.push({ label: vscode.l10n.t('$(circle-slash) None (text to video)'), value: 'none' });
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
        const limit = rules.known
          ? rules.minImages === rules.maxImages
            ? vscode.l10n.t('{0} needs exactly one reference image.', model)
            : vscode.l10n.t(
                '{0}: none, one or up to {1} images; with several images at most {2} s.',
                model,
                rules.maxImages,
                rules.maxSecondsMulti ?? rules.maxSeconds,
              )
          : vscode.l10n.t('Reference images');
        r = await pick(3, limit, items, preselected.length ? 'selected' : rules.textToVideo ? 'none' : 'files');
        if (r === 'none') images = { kind: 'none' };
        else if (r === 'selected') images = { kind: 'files', uris: preselected };
        else if (r === 'files') {
          // Cancelling a sub-step shows the image choice again.
          const chosen = await pickWorkspaceImages(rules.maxImages);
          if (!chosen) continue;
          images = { kind: 'files', uris: chosen };
        } else if (r === 'urls') {
          const prev = images.kind === 'urls' ? images.urls.join(' ') : '';
          const t = await input(
            3,
            vscode.l10n.t('HTTPS links to the reference images, separated by spaces.'),
            prev,
            (v) => parseUrlList(v).problem,
          );
          if (typeof t !== 'string') continue;
          images = { kind: 'urls', urls: parseUrlList(t).urls };
        }
        if (typeof r === 'string') {
          const n = countOf(images);
          if (rules.known && (n < rules.minImages || n > rules.maxImages)) {
            void vscode.window.showWarningMessage(
              rules.minImages === rules.maxImages
                ? vscode.l10n.t('{0} only supports exactly one reference image; {1} chosen.', model, n)
                : vscode.l10n.t('{0} accepts at most {1} reference images; {2} chosen.', model, rules.maxImages, n),
            );
            continue;
          }
        }
        break;
      }
      case 4: {
        const n = countOf(images);
        const choices = secondsChoices(model, n);
        const rules = rulesFor(model);
        const multi = n > 1 && rules.maxSecondsMulti !== undefined;
        const items = await Promise.all(
          choices.map(async (s) => ({
            label: vscode.l10n.t('{0} seconds', s),
            description: s === settings.video.seconds ? vscode.l10n.t('default') : undefined,
            detail: (await price({ model, seconds: s, resolution })) || undefined,
            value: s,
          })),
        );
        const ph = multi
          ? vscode.l10n.t(
              'Duration. With several reference images {0} makes at most {1} s (longer is processed as {1} s).',
              model,
              rules.maxSecondsMulti ?? 10,
            )
          : vscode.l10n.t('Duration (at most {0} s).', rules.maxSeconds);
        // A default the model does not offer here (15 s with several images) falls to the nearest below.
        const fallback = [...choices].reverse().find((c) => c <= seconds) ?? choices[0];
        r = await pick(4, ph, items, choices.includes(seconds) ? seconds : fallback);
        if (typeof r === 'number') seconds = r;
        break;
      }
      case 5: {
        const allowed = rulesFor(model).aspectRatios;
        const items = allowed.map((a) => ({
          label: a,
          description: a === settings.video.aspectRatio ? vscode.l10n.t('default') : undefined,
          value: a,
        }));
        const ph =
          model === 'vendor-video-1.5'
            ? vscode.l10n.t('Aspect ratio ({0} allows only 16:9 and 9:16)', model)
            : vscode.l10n.t('Aspect ratio');
        r = await pick(5, ph, items, allowed.includes(aspect) ? aspect : allowed[0]);
        if (typeof r === 'string') aspect = r;
        break;
      }
      case 6: {
        const items = await Promise.all(
          rulesFor(model).resolutions.map(async (res) => ({
            label: res,
            description: res === settings.video.resolution ? vscode.l10n.t('default') : undefined,
            detail: [RESOLUTION_ADVICE[res], await price({ model, seconds, resolution: res })]
              .filter(Boolean)
              .join(' · '),
            value: res,
          })),
        );
        r = await pick(
          6,
          vscode.l10n.t('Resolution: 480p for bulk material, 720p for covers and key visuals'),
          items,
          resolution,
        );
        if (typeof r === 'string') resolution = r;
        break;
      }
      default:
        r = undefined;
    }
    if (r === undefined) return undefined;
    if (r === BACK) step = Math.max(1, step - 1);
    else step++;
  }

  const labels: string[] = [];
  const urls: string[] = [];
  if (images.kind === 'files') {
    for (const uri of images.uris) {
      urls.push(await imageToDataUrl(uri));
      labels.push(imageLabel(uri));
    }
  } else if (images.kind === 'urls') {
    urls.push(...images.urls);
    labels.push(...images.urls);
  }
  const request: VideoCreateRequest = { model, prompt, seconds, aspect_ratio: aspect, resolution };
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
