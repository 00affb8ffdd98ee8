/**
 * "Edit Image…": on an image file in the explorer, a Media gallery card, or (from the palette) a
 * picked file. The prompt, an optional mask (a PNG of the image's size: another size is refused
 * naming both), a model whose catalog family edits, then one multipart edit (src/api/images); each
 * result is saved into `gatewayStudio.images.outputFolder` under a fresh name (never over the source
 * nor any other file) and the first is opened. Loaded on first use (src/images/vscode/register.ts).
 * The flow is this file's one function, so a price line before sending goes in one place.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { familyFor } from '../../../api/catalog/catalog';
import type { CheckedImage } from '../../../api/images/imageInputs';
import { showGatewayError } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { IMAGE_OUTPUT_SETTING } from '../../jobs/core/outputFolder';
import { saveImageOutput, type SavedImage } from '../../jobs/core/saveImage';
import {
  confirmImagePrice,
  imageCatalog,
  imageClient,
  imageOutputFolder,
  quoteImage,
} from '../../base/vscode/imageRun';
import { newJobId } from '../../jobs/core/imageJob';
import { editFamilies, editModelProblem, readEditInputs } from '../core/editChoices';

const LAST_EDIT_MODEL_KEY = 'gatewayStudio.images.lastEditModel';
const IMAGE_FILTER = { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] };

/** The image to edit: the one given (explorer, gallery), else one the user picks. */
async function sourceOf(target: vscode.Uri | undefined): Promise<string | undefined> {
  if (target?.scheme === 'file') return target.fsPath;
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Edit Image: the image to edit'),
    canSelectMany: false,
    filters: IMAGE_FILTER,
  });
  return picked?.[0]?.fsPath;
}

/** The mask's path, '' for none, undefined when the user stopped. */
async function askMask(): Promise<string | undefined> {
  const none = { label: vscode.l10n.t('No mask'), description: vscode.l10n.t('the model edits the whole image') };
  const pick = {
    label: vscode.l10n.t('Choose a mask…'),
    description: vscode.l10n.t('a PNG of the same size, transparent where to edit'),
  };
  const chosen = await vscode.window.showQuickPick([none, pick], {
    title: vscode.l10n.t('Edit Image (2/3): mask'),
    ignoreFocusOut: true,
  });
  if (!chosen) return undefined;
  if (chosen === none) return '';
  const file = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Edit Image: the mask (PNG)'),
    canSelectMany: false,
    filters: { PNG: ['png'] },
  });
  return file?.[0]?.fsPath;
}

async function askModel(s: Services, withMask: boolean): Promise<string | undefined> {
  const catalog = imageCatalog(s);
  const families = editFamilies(catalog).filter((f) => !withMask || f.edits?.mask);
  const model = await vscode.window.showInputBox({
    title: vscode.l10n.t('Edit Image (3/3): model'),
    prompt: vscode.l10n.t(
      'The image model ID. Of the catalog, these edit images: {0}',
      families.map((f) => f.name).join(', '),
    ),
    value: s.context.globalState.get<string>(LAST_EDIT_MODEL_KEY) ?? 'gpt-image-1',
    ignoreFocusOut: true,
    validateInput: (v) =>
      v.trim() === ''
        ? vscode.l10n.t('A model ID is required')
        : (editModelProblem(catalog, v.trim(), withMask) ??
          (familyFor(catalog, v.trim(), 'image')
            ? undefined
            : {
                message: vscode.l10n.t('Not in the catalog: the general checks apply'),
                severity: vscode.InputBoxValidationSeverity.Info,
              })),
  });
  const id = model?.trim();
  if (!id || editModelProblem(catalog, id, withMask)) return undefined;
  await s.context.globalState.update(LAST_EDIT_MODEL_KEY, id);
  return id;
}

/** A path as the sidecar records it: workspace-relative when inside a folder. */
function shown(file: string): string {
  return vscode.workspace.asRelativePath(file, false);
}

export async function editImage(s: Services, target: vscode.Uri | undefined, onSaved: () => void): Promise<void> {
  const source = await sourceOf(target);
  if (!source) return;
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Edit Image (1/3): what to change in {0}', path.basename(source)),
    prompt: vscode.l10n.t('Describe the change, e.g. "make the background dark"'),
    ignoreFocusOut: true,
  });
  if (!prompt?.trim()) return;
  const mask = await askMask();
  if (mask === undefined) return;
  let inputs: { images: CheckedImage[]; mask?: CheckedImage };
  try {
    inputs = await readEditInputs(source, mask || undefined);
  } catch (e) {
    void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    return;
  }
  const model = await askModel(s, inputs.mask !== undefined);
  if (!model) return;
  try {
    const folder = await imageOutputFolder();
    if (!folder) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Open a folder first: images are saved into {0} inside it.', IMAGE_OUTPUT_SETTING),
      );
      return;
    }
    // The price before it is sent, as the Generate Image command and the agent tools show it.
    const what = vscode.l10n.t('an edit of {0} with {1}', path.basename(source), model);
    if (!(await confirmImagePrice(s, await quoteImage(s, { model, prompt }), what))) return;
    const saved = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Editing {0} with {1}…', path.basename(source), model),
        cancellable: true,
      },
      async (_p, token) => {
        const stop = new AbortController();
        token.onCancellationRequested(() => stop.abort());
        const { client, billed } = await imageClient(s, model);
        const http = client.http;
        const answer = await client.edit({ model, prompt }, inputs, { signal: stop.signal });
        // Counted once as kind image (the ledger, the balance change as its charge) before saving.
        billed(newJobId(), answer.images.length);
        const meta = {
          prompt,
          model,
          operation: 'edit' as const,
          inputs: [shown(source), ...(mask ? [shown(mask)] : [])],
        };
        const out: SavedImage[] = [];
        for (const image of answer.images)
          out.push(await saveImageOutput(http, folder, image, meta, { signal: stop.signal }));
        return out;
      },
    );
    s.log.info(`edited ${source}: saved ${saved.map((x) => x.file).join(', ')}`);
    onSaved();
    if (saved[0]) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(saved[0].file));
  } catch (e) {
    showGatewayError(s, e);
  }
}
