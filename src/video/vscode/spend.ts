import * as vscode from 'vscode';
import type { VideoCreateRequest } from '../../api/videoRules';
import type { Services } from '../../platform/services';
import { userValue } from '../../platform/userSettings';
import { onVideoCharge, quoteVideo, type VideoQuote } from '../../platform/videoSpend';
import { ClipCosts, type ClipCost } from '../jobs/core/costs';
import type { VideoJobManager } from '../jobs/core/manager';

/** Hidden, registered only under the integration tests: answers the next price dialogs and lists those shown. */
export const SPEND_DIALOG_TEST_COMMAND = 'gatewayStudio.video.testSpendDialogs';

/** Thrown by a start the user declined at the price: nothing was sent. */
export class SpendDeclined extends Error {
  constructor(readonly priceLine: string) {
    super(vscode.l10n.t('Not submitted: you declined the price ({0}). Nothing was sent or billed.', priceLine));
  }
}

type Dialogs = Pick<typeof vscode.window, 'showWarningMessage'>;

/**
 * The video feature's side of spend: the quote before every submit (through the platform bridge,
 * "unknown" when the account feature is off or not loaded), the question above the user's
 * `confirmAbove`, and the estimates and charges kept per task for the gallery.
 */
export class VideoSpend implements vscode.Disposable {
  readonly costs: ClipCosts;
  private dialogs: Dialogs = vscode.window;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly s: Services,
    manager: () => VideoJobManager,
    changed: (key: string) => void,
  ) {
    this.costs = new ClipCosts(s.context.workspaceState);
    this.subs.push(
      onVideoCharge(s, (c) => {
        const r = manager()
          .list()
          .find((t) => t.videoId === c.videoId);
        if (!r) return;
        void this.costs
          .set(r.key, {
            charged: c.charged,
            source: c.source,
            failedCharged: c.failedCharged,
            ...(c.estimate ? { estimate: c.estimate } : {}),
          })
          .then(() => changed(r.key));
      }),
    );
    if (s.context.extensionMode === vscode.ExtensionMode.Test) {
      let shown: Array<{ message: string; detail?: string }> = [];
      this.subs.push(
        vscode.commands.registerCommand(SPEND_DIALOG_TEST_COMMAND, (answers?: Array<'accept' | 'decline'>) => {
          if (!answers) return [...shown];
          shown = [];
          const queue = [...answers];
          this.dialogs = {
            showWarningMessage: (message: string, options: vscode.MessageOptions, ...items: string[]) => {
              shown.push({ message, detail: options.detail });
              return Promise.resolve(queue.shift() === 'accept' ? items[0] : undefined);
            },
          } as unknown as Dialogs;
          return [];
        }),
      );
    }
  }

  /** The price of a request as the confirmations show it. Never rejects, never waits on the network. */
  quote(req: Pick<VideoCreateRequest, 'model' | 'seconds' | 'resolution'>): Promise<VideoQuote> {
    return quoteVideo(
      this.s,
      { model: req.model, seconds: req.seconds, resolution: req.resolution },
      vscode.l10n.t('Price unknown: the account feature is off or not loaded yet.'),
    );
  }

  /**
   * Above `confirmAbove`: a modal that names the figure and the limit; true to go on. Below it,
   * or without a figure, true without asking.
   */
  async confirm(q: VideoQuote): Promise<boolean> {
    if (!q.known) return this.confirmUnknown(q);
    if (q.above === undefined) return true;
    const go = vscode.l10n.t('Generate (billed)');
    const pick = await this.dialogs.showWarningMessage(
      vscode.l10n.t('This video is estimated at {0}, above your limit of {1}. Submit it?', q.amount, q.above),
      {
        modal: true,
        detail: vscode.l10n.t('{0}. The limit is gatewayStudio.spend.confirmAbove in your user settings.', q.line),
      },
      go,
    );
    if (pick !== go) {
      this.s.log.info(`video: not submitted, the price ${q.amount} above the limit ${q.above} was declined`);
      return false;
    }
    return true;
  }

  /**
   * No figure while the user set `confirmAbove`: the guard cannot tell whether the clip is above
   * it, so it asks, saying the price is unknown and why (a quiet submit would defeat the limit
   * exactly when the price could be anything). The user's own settings only, as the account reads
   * them: a workspace can neither set the limit nor turn the feature off to skip the question.
   */
  private async confirmUnknown(q: Extract<VideoQuote, { known: false }>): Promise<boolean> {
    const user = (key: string): unknown => userValue(`spend.${key}`);
    const above = user('confirmAbove');
    if (user('enabled') === false || typeof above !== 'number' || !Number.isFinite(above) || above <= 0) return true;
    const go = vscode.l10n.t('Generate (billed)');
    const pick = await this.dialogs.showWarningMessage(
      vscode.l10n.t(
        "This video's price is unknown, so it may be above your limit of {0}. Submit it?",
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
    if (pick !== go) {
      this.s.log.info(
        `video: not submitted, the price is unknown and confirmAbove (${q.limit ?? above}) is set; declined`,
      );
      return false;
    }
    return true;
  }

  /** Keeps the quote shown before the submit beside the new task. */
  async noteQuote(key: string, q: VideoQuote): Promise<void> {
    await this.costs.set(key, q.known ? { quoteLine: q.line, estimate: q.amount } : { quoteLine: q.line });
  }

  costOf(key: string): ClipCost | undefined {
    return this.costs.get(key);
  }

  /** The line for the billed-confirmation modals (gallery) and the tools' confirmations. */
  static priceLine(q: VideoQuote): string {
    if (!q.known) return q.line;
    return q.above !== undefined
      ? vscode.l10n.t('Price: {0} (above your limit of {1})', q.line, q.above)
      : vscode.l10n.t('Price: {0}', q.line);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}
