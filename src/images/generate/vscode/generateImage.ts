/**
 * "Generate Image": the model, the prompt, then only what the model's catalog family allows (its
 * sizes, its count), checked against the catalog, priced (asked above the user's limit) before anything is sent; the
 * request goes once, each image is saved into `gatewayStudio.images.outputFolder` and the first is
 * opened; an image whose save failed can be saved again without a second request. Loaded on
 * first use (src/images/vscode/register.ts).
 */
import * as vscode from 'vscode';
import { familyFor, type Catalog, type CatalogFamily } from '../../../api/catalog/catalog';
import { validateCatalogImage, type CatalogImageRequest } from '../../../api/catalog/catalogRules';
import { showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { IMAGE_OUTPUT_SETTING } from '../../jobs/core/outputFolder';
import { generateImages, type ImageJobResult } from '../../jobs/core/imageJob';
import {
  confirmImagePrice,
  imageCatalog,
  imageClient,
  imageOutputFolder,
  imagePriceLine,
  quoteImage,
  LAST_MODEL_KEY,
} from '../../base/vscode/imageRun';
async function askModel(s: Services, catalog: Catalog): Promise<string | undefined> {
  const families = catalog.families.filter((f) => f.kind === 'image');
  const known = (id: string) => familyFor(catalog, id, 'image');
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Generate Image (1/4): model'),
    prompt: vscode.l10n.t('The image model ID. The catalog knows: {0}', families.map((f) => f.name).join(', ')),
    value: s.context.globalState.get<string>(LAST_MODEL_KEY) ?? 'gpt-image-1',
    ignoreFocusOut: true,
    validateInput: (v) =>
      v.trim() === ''
        ? vscode.l10n.t('A model ID is required')
        : {
            message: known(v.trim())
              ? vscode.l10n.t('{0}: checked against its catalog entry', known(v.trim())!.name)
              : vscode.l10n.t('Not in the catalog: the general checks apply'),
            severity: vscode.InputBoxValidationSeverity.Info,
          },
  });
}

async function askSize(f: CatalogFamily | undefined, price: string): Promise<string | undefined | null> {
  const sizes = f?.sizes ?? ['1024x1024', '1536x1024', '1024x1536'];
  const items: vscode.QuickPickItem[] = [
    { label: vscode.l10n.t('Default'), description: vscode.l10n.t("the model's own") },
    ...sizes.map((label) => ({ label })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Generate Image (3/4): size'),
    placeHolder: price,
    ignoreFocusOut: true,
  });
  if (!picked) return null;
  return picked === items[0] ? undefined : picked.label;
}

/** The count, each choice with its price (no network: the quotes come from cached prices). */
async function askCount(
  s: Services,
  f: CatalogFamily | undefined,
  req: CatalogImageRequest,
): Promise<number | undefined> {
  const max = f?.n?.max ?? 4;
  if (max <= 1) return 1;
  const counts = Array.from({ length: Math.min(max, 10) }, (_, i) => i + 1);
  const quotes = await Promise.all(counts.map((n) => quoteImage(s, { ...req, n })));
  const picked = await vscode.window.showQuickPick(
    counts.map((n, i) => ({ label: String(n), description: imagePriceLine(quotes[i]!) })),
    { title: vscode.l10n.t('Generate Image (4/4): how many images'), ignoreFocusOut: true },
  );
  return picked ? Number(picked.label) : undefined;
}

/** Asks for the request step by step; undefined when the user stopped or it broke a rule (said). */
async function askRequest(s: Services, catalog: Catalog): Promise<CatalogImageRequest | undefined> {
  const model = (await askModel(s, catalog))?.trim();
  if (!model) return undefined;
  await s.context.globalState.update(LAST_MODEL_KEY, model);
  const f = familyFor(catalog, model, 'image');
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Generate Image (2/4): prompt'),
    prompt: vscode.l10n.t('Describe the image'),
    ignoreFocusOut: true,
  });
  if (!prompt?.trim()) return undefined;
  // The price is shown before anything is sent: per image on the size step, per count on the next.
  const size = await askSize(f, imagePriceLine(await quoteImage(s, { model, prompt, n: 1 })));
  if (size === null) return undefined;
  const n = await askCount(s, f, { model, prompt, ...(size !== undefined ? { size } : {}) });
  if (n === undefined) return undefined;
  const req: CatalogImageRequest = { model, prompt, n, ...(size !== undefined ? { size } : {}) };
  const checked = validateCatalogImage(f, req);
  if (checked.errors.length) {
    void vscode.window.showErrorMessage(checked.errors.map((e) => e.message).join(' '));
    return undefined;
  }
  return req;
}

/** The output folder, or undefined (said to the user) when no folder is open. */
async function outputFolder(): Promise<string | undefined> {
  const dir = await imageOutputFolder();
  if (dir === undefined)
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Open a folder first: images are saved into {0} inside it.', IMAGE_OUTPUT_SETTING),
    );
  return dir;
}

/** Sends once and saves, under a cancellable notification. */
function run(s: Services, f: CatalogFamily | undefined, req: CatalogImageRequest, folder: string) {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Generating an image with {0}…', req.model),
      cancellable: true,
    },
    async (_p, token) => {
      const stop = new AbortController();
      token.onCancellationRequested(() => stop.abort());
      const { client, billed } = await imageClient(s, req.model);
      return generateImages({ client, family: f, folder, request: req, signal: stop.signal, billed });
    },
  );
}

/**
 * Images that were made (and billed) but not saved: said with the reason, and saved again from
 * the same answer on request, never by sending the request again.
 */
async function offerRetry(s: Services, result: ImageJobResult): Promise<ImageJobResult> {
  let r = result;
  while (r.failed.length) {
    const retry = vscode.l10n.t('Save Again');
    const first = r.failed[0]!.error;
    s.log.warn(
      `images: ${r.failed.length} image(s) of job ${r.jobId} not saved: ${first instanceof Error ? first.message : String(first)}`,
    );
    const pick = await vscode.window.showErrorMessage(
      vscode.l10n.t(
        '{0} image(s) were made but could not be saved: {1} Saving again does not send the request again.',
        r.failed.length,
        first instanceof Error ? first.message : String(first),
      ),
      retry,
    );
    if (pick !== retry) break;
    const again = await r.retry();
    r = { ...again, saved: [...r.saved, ...again.saved] };
  }
  return r;
}

/**
 * One image for another feature (a storyboard's keyframe): checked against the catalog, sent once,
 * counted as kind image, saved into the output folder; resolves with its path. The caller asked
 * the user before (the board's approval names its keyframes as billed).
 */
export async function generateOne(
  s: Services,
  r: { prompt: string; model?: string; size?: string },
  signal?: AbortSignal,
): Promise<string> {
  const catalog = imageCatalog(s);
  const model = r.model ?? s.context.globalState.get<string>(LAST_MODEL_KEY) ?? 'gpt-image-1';
  const req: CatalogImageRequest = { model, prompt: r.prompt, n: 1, ...(r.size ? { size: r.size } : {}) };
  const f = familyFor(catalog, model, 'image');
  const checked = validateCatalogImage(f, req);
  if (checked.errors.length) throw new Error(checked.errors.map((e) => e.message).join(' '));
  const folder = await imageOutputFolder();
  if (!folder)
    throw new Error(vscode.l10n.t('Open a folder first: images are saved into {0} inside it.', IMAGE_OUTPUT_SETTING));
  const { client, billed } = await imageClient(s, model);
  const result = await generateImages({
    client,
    family: f,
    folder,
    request: req,
    ...(signal ? { signal } : {}),
    billed,
  });
  const first = result.saved[0];
  if (!first) throw result.failed[0]?.error ?? new Error(vscode.l10n.t('The answer held no image.'));
  return first.file;
}

export async function generateImage(s: Services, onSaved: () => void = () => undefined): Promise<void> {
  const catalog = imageCatalog(s);
  const req = await askRequest(s, catalog);
  if (!req) return;
  const folder = await outputFolder().catch((e: unknown) => {
    showGatewayError(s, e);
    return undefined;
  });
  if (!folder) return;
  const f = familyFor(catalog, req.model, 'image');
  const q = await quoteImage(s, req);
  s.log.info(`images: ${req.model}, ${req.n ?? 1} image(s): ${imagePriceLine(q)}`);
  if (!(await confirmImagePrice(s, q, vscode.l10n.t('{0} image(s) with {1}', req.n ?? 1, req.model)))) return;
  try {
    const result = await offerRetry(s, await run(s, f, req, folder));
    s.log.info(`saved ${result.saved.length} image(s): ${result.saved.map((x) => x.file).join(', ')}`);
    if (result.saved.length) onSaved();
    if (result.saved[0]) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(result.saved[0].file));
  } catch (e) {
    showGatewayError(s, e);
  }
}
