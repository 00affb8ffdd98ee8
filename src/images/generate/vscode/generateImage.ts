/**
 * "Generate Image": the model, the prompt, then only what the model's catalog family allows (its
 * sizes, its count), checked against the catalog before anything is sent; the request goes once,
 * each image is saved into `gatewayStudio.images.outputFolder` and the first is opened. Loaded on
 * first use (src/images/vscode/register.ts).
 */
import * as vscode from 'vscode';
import { familyFor, type Catalog, type CatalogFamily } from '../../../api/catalog/catalog';
import { validateCatalogImage, type CatalogImageRequest } from '../../../api/catalog/catalogRules';
import { ImageClient, type ImageAnswer } from '../../../api/images/images';
import { getGatewayClient, showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { IMAGE_OUTPUT_SETTING } from '../../jobs/core/outputFolder';
import { imageCatalog, imageOutputFolder } from '../../base/vscode/imageSettings';
import { saveImageOutput, type SavedImage } from '../../jobs/core/saveImage';

const LAST_MODEL_KEY = 'gatewayStudio.images.lastModel';

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

async function askSize(f: CatalogFamily | undefined): Promise<string | undefined | null> {
  const sizes = f?.sizes ?? ['1024x1024', '1536x1024', '1024x1536'];
  const items: vscode.QuickPickItem[] = [
    { label: vscode.l10n.t('Default'), description: vscode.l10n.t("the model's own") },
    ...sizes.map((label) => ({ label })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Generate Image (3/4): size'),
    ignoreFocusOut: true,
  });
  if (!picked) return null;
  return picked === items[0] ? undefined : picked.label;
}

async function askCount(f: CatalogFamily | undefined): Promise<number | undefined> {
  const max = f?.n?.max ?? 4;
  if (max <= 1) return 1;
  const picked = await vscode.window.showQuickPick(
    Array.from({ length: Math.min(max, 10) }, (_, i) => ({ label: String(i + 1) })),
    { title: vscode.l10n.t('Generate Image (4/4): how many images'), ignoreFocusOut: true },
  );
  return picked ? Number(picked.label) : undefined;
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
  const size = await askSize(f);
  if (size === null) return undefined;
  const n = await askCount(f);
  if (n === undefined) return undefined;
  const req: CatalogImageRequest = { model, prompt, n, ...(size !== undefined ? { size } : {}) };
  const checked = validateCatalogImage(f, req);
  if (checked.errors.length) {
    void vscode.window.showErrorMessage(checked.errors.map((e) => e.message).join(' '));
    return undefined;
  }
  return req;
}

async function send(s: Services, f: CatalogFamily | undefined, r: CatalogImageRequest, signal: AbortSignal) {
  const http = (await getGatewayClient(s, 'chat')).http;
  const client = new ImageClient(http);
  const answer: ImageAnswer =
    f?.route === 'chat-images'
      ? await client.chatImage({ model: r.model, prompt: r.prompt }, signal)
      : await client.generate(
          {
            model: r.model,
            prompt: r.prompt,
            ...(r.size ? { size: r.size } : {}),
            ...(r.n && r.n > 1 ? { n: r.n } : {}),
          },
          signal,
        );
  return { http, answer };
}

/** Sends `req` once and saves every image of the answer into `folder`; what was saved. */
export async function generateInto(
  s: Services,
  catalog: Catalog,
  req: CatalogImageRequest,
  folder: string,
  signal: AbortSignal,
): Promise<SavedImage[]> {
  const f = familyFor(catalog, req.model, 'image');
  const { http, answer } = await send(s, f, req, signal);
  const out: SavedImage[] = [];
  for (const image of answer.images) {
    const meta = {
      prompt: req.prompt,
      model: req.model,
      operation: f?.route === 'chat-images' ? ('chat' as const) : ('generate' as const),
      ...(req.size ? { size: req.size } : {}),
    };
    out.push(await saveImageOutput(http, folder, image, meta, { signal }));
  }
  return out;
}

/**
 * One image for another feature (a storyboard's keyframe): checked against the catalog, sent once,
 * saved into the output folder; resolves with its path. The caller asked the user before.
 */
export async function generateOne(
  s: Services,
  r: { prompt: string; model?: string; size?: string },
  signal?: AbortSignal,
): Promise<string> {
  const catalog = imageCatalog(s);
  const model = r.model ?? s.context.globalState.get<string>(LAST_MODEL_KEY) ?? 'gpt-image-1';
  const req: CatalogImageRequest = { model, prompt: r.prompt, n: 1, ...(r.size ? { size: r.size } : {}) };
  const checked = validateCatalogImage(familyFor(catalog, model, 'image'), req);
  if (checked.errors.length) throw new Error(checked.errors.map((e) => e.message).join(' '));
  const folder = await imageOutputFolder();
  if (!folder)
    throw new Error(vscode.l10n.t('Open a folder first: images are saved into {0} inside it.', IMAGE_OUTPUT_SETTING));
  const saved = await generateInto(s, catalog, req, folder, signal ?? new AbortController().signal);
  if (!saved[0]) throw new Error(vscode.l10n.t('The answer held no image.'));
  return saved[0].file;
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
  try {
    const saved = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Generating an image with {0}…', req.model),
        cancellable: true,
      },
      async (_p, token) => {
        const stop = new AbortController();
        token.onCancellationRequested(() => stop.abort());
        return generateInto(s, catalog, req, folder, stop.signal);
      },
    );
    s.log.info(`saved ${saved.length} image(s): ${saved.map((x) => x.file).join(', ')}`);
    onSaved();
    if (saved[0]) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(saved[0].file));
  } catch (e) {
    showGatewayError(s, e);
  }
}
