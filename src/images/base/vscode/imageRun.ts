/**
 * What every image request of this extension shares on the VS Code side (the Generate Image
 * command, the agent tools, the Edit Image command): the catalog in effect, the output folder,
 * the price before the submit (through `services.mediaSpend`, kind `image`), the question above the
 * user's `confirmAbove`, and the usage event once per answered request (the ledger's kind image).
 * Loaded on first use, with the code that needs it.
 */
import * as vscode from 'vscode';
import type { Catalog } from '../../../api/catalog/catalog';
import { ImageClient } from '../../../api/images/images';
import { getGatewayClient } from '../../../platform/gateway';
import { mediaCatalog } from '../../../platform/mediaCatalog';
import { quoteMedia, type MediaQuote } from '../../../platform/mediaSpend';
import type { Services } from '../../../platform/services';
import { settingLayers, userValue } from '../../../platform/userSettings';
import { repositoryValue } from '../../../shared/settingLayers';
import type { ImageJobRequest } from '../../jobs/core/imageJob';
import { imageFolderFor } from '../../jobs/core/outputFolder';

export const LAST_MODEL_KEY = 'gatewayStudio.images.lastModel';
export const DEFAULT_IMAGE_MODEL = 'gpt-image-1';

type Dialogs = Pick<typeof vscode.window, 'showWarningMessage'>;
/** Where the price questions are asked: VS Code's modals (the host tests queue answers here). */
export const imageDialogs: { current: Dialogs } = { current: vscode.window };

/** The catalog in effect (platform/mediaCatalog.ts: the user's override only, each problem shown once). */
export function imageCatalog(s: Services): Catalog {
  return mediaCatalog(s.log);
}

/** The workspace folders on disk. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/**
 * The output folder; undefined when no folder is open. Throws (a config error naming the
 * setting) when a workspace value points outside or a link in it leads out.
 */
export async function imageOutputFolder(): Promise<string | undefined> {
  const roots = workspaceRoots();
  const fromRepo = repositoryValue(settingLayers('images.outputFolder'), (v) => typeof v === 'string');
  return imageFolderFor({
    value: vscode.workspace.getConfiguration('gatewayStudio').get<string>('images.outputFolder') ?? '',
    repoValue: fromRepo?.value as string | undefined,
    folder: roots[0],
    roots,
  });
}

/** The price of a request, as the confirmations show it. Never rejects, never waits on the network. */
export function quoteImage(s: Services, r: ImageJobRequest): Promise<MediaQuote> {
  return quoteMedia(
    s,
    {
      kind: 'image',
      model: r.model,
      images: r.n ?? 1,
      ...(r.size ? { size: r.size } : {}),
      ...(r.quality ? { quality: r.quality } : {}),
    },
    vscode.l10n.t('Price unknown: the account feature is off or not loaded yet.'),
  );
}

/** The price line of the confirmations. */
export function imagePriceLine(q: MediaQuote): string {
  if (!q.known) return q.line;
  return q.above !== undefined
    ? vscode.l10n.t('Price: {0} (above your limit of {1})', q.line, q.above)
    : vscode.l10n.t('Price: {0}', q.line);
}

/**
 * Above the user's `confirmAbove` (or with the price unknown while it is set): a modal naming
 * the price; true to go on. The limit is read from user settings only, so a workspace can
 * neither lower nor lift it.
 */
export async function confirmImagePrice(s: Services, q: MediaQuote, what: string): Promise<boolean> {
  const above = userValue('spend.confirmAbove');
  const limitSet = userValue('spend.enabled') !== false && typeof above === 'number' && above > 0;
  if (q.known ? q.above === undefined : !limitSet) return true;
  const go = vscode.l10n.t('Generate (billed)');
  const pick = await imageDialogs.current.showWarningMessage(
    q.known
      ? vscode.l10n.t('{0} is estimated at {1}, above your limit of {2}. Send it?', what, q.amount, q.above!)
      : vscode.l10n.t(
          'The price of {0} is unknown, so it may be above your limit of {1}. Send it?',
          what,
          q.limit ?? String(above),
        ),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0}. The limit is gatewayStudio.spend.confirmAbove in your user settings.',
        q.line.replace(/\.$/, ''),
      ),
    },
    go,
  );
  if (pick !== go) s.log.info('images: not sent, the price question was declined');
  return pick === go;
}

/**
 * An image client for the active profile, and the `billed` hook that tells the account feature
 * of an answered request once (the ledger counts it as kind image, the balance change is its charge).
 */
export async function imageClient(
  s: Services,
  model: string,
): Promise<{ client: ImageClient; billed: (jobId: string, images: number) => void }> {
  const http = (await getGatewayClient(s, 'chat')).http;
  return {
    client: new ImageClient(http),
    billed: (jobId, images) => {
      s.log.info(`images: ${model} answered ${images} image(s) (job ${jobId})`);
      s.usage.emit({ kind: 'image', gateway: http.baseUrl, jobId, model, images });
    },
  };
}
