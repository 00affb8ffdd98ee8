/**
 * "Generate Image": the model, the prompt, then only what the model's catalog family allows (its
 * sizes, its count), checked against the catalog before anything is sent; the request goes once,
 * each image is saved into `gatewayStudio.images.outputFolder` and the first is opened. Loaded on
 * first use (src/images/vscode/register.ts).
 */
import * as vscode from 'vscode';
import {
  CATALOG_SETTING,
  familyFor,
  loadCatalog,
  type Catalog,
  type CatalogFamily,
} from '../../../api/catalog/catalog';
import { validateCatalogImage, type CatalogImageRequest } from '../../../api/catalog/catalogRules';
import { ImageClient, type ImageAnswer } from '../../../api/images/images';
import { getGatewayClient, showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { settingLayers } from '../../../platform/userSettings';
import { repositoryValue } from '../../../shared/settingLayers';
import { imageFolderFor, IMAGE_OUTPUT_SETTING } from '../../jobs/core/outputFolder';
import { saveImageOutput, type SavedImage } from '../../jobs/core/saveImage';

const LAST_MODEL_KEY = 'gatewayStudio.images.lastModel';

/** The catalog in effect; each problem with the user's override is logged and shown once per run. */
function catalogFor(s: Services): Catalog {
  const loaded = loadCatalog(settingLayers('media.catalogOverrides'), CATALOG_SETTING);
  for (const p of loaded.problems) s.log.warn(p);
  if (loaded.problems.length) void vscode.window.showWarningMessage(loaded.problems.join(' '));
  return loaded.catalog;
}

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
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const layers = settingLayers('images.outputFolder');
  const fromRepo = repositoryValue(layers, (v) => typeof v === 'string');
  const value = vscode.workspace.getConfiguration('gatewayStudio').get<string>('images.outputFolder') ?? '';
  const dir = await imageFolderFor({
    value,
    repoValue: fromRepo?.value as string | undefined,
    folder: folders[0]?.uri.fsPath,
    roots: folders.map((f) => f.uri.fsPath),
  });
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

export async function generateImage(s: Services): Promise<void> {
  const catalog = catalogFor(s);
  const req = await askRequest(s, catalog);
  if (!req) return;
  const folder = await outputFolder().catch((e: unknown) => {
    showGatewayError(s, e);
    return undefined;
  });
  if (!folder) return;
  const f = familyFor(catalog, req.model, 'image');
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
        const { http, answer } = await send(s, f, req, stop.signal);
        const out: SavedImage[] = [];
        for (const image of answer.images) {
          const meta = {
            prompt: req.prompt,
            model: req.model,
            operation: f?.route === 'chat-images' ? ('chat' as const) : ('generate' as const),
            ...(req.size ? { size: req.size } : {}),
          };
          out.push(await saveImageOutput(http, folder, image, meta, { signal: stop.signal }));
        }
        return out;
      },
    );
    s.log.info(`saved ${saved.length} image(s): ${saved.map((x) => x.file).join(', ')}`);
    if (saved[0]) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(saved[0].file));
  } catch (e) {
    showGatewayError(s, e);
  }
}
