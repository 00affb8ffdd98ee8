import * as vscode from 'vscode';
import type { VideoCreateRequest } from '../../../api/video/videoRules';
import type { Services } from '../../../platform/services';
import { userValue } from '../../../platform/userSettings';
import { onMediaCharge, quoteMedia, type MediaQuote } from '../../../platform/mediaSpend';
import { ClipCosts, type ClipCost } from '../../jobs/core/costs';
import { totalLine } from '../core/price';
import type { VideoJobManager } from '../../jobs/core/manager';

/**
 * `allowed`: within the agents' allowance, not asked (`confirmAbove` still asks at the start);
 * `confirmed`: the user said yes to the modal, which named the price (and the limit it is above).
 */
export type AgentAnswer = 'allowed' | 'confirmed' | 'declined';

/** Several clips' price: the total, and why a clip has none. */
function agentPriceLine(quotes: readonly MediaQuote[]): string {
  const total = totalLine(
    quotes.map((q) => (q.known ? { known: true, quota: q.quota, amount: q.amount } : { known: false })),
  );
  const unknown = quotes.find((q) => !q.known);
  return [total ? vscode.l10n.t('Price: {0}', total) : '', unknown?.line ?? ''].filter(Boolean).join(' ');
}

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
  /** Where the questions are asked: VS Code's modals (the host tests' seam queues answers here). */
  dialogs: Dialogs = vscode.window;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly s: Services,
    manager: () => VideoJobManager,
    changed: (key: string) => void,
  ) {
    this.costs = new ClipCosts(s.context.workspaceState);
    this.subs.push(
      onMediaCharge(s, (c) => {
        const r = manager()
          .list()
          .find((t) => c.kind === 'video' && t.videoId === c.jobId);
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
  }

  /** The price of a request as the confirmations show it. Never rejects, never waits on the network. */
  quote(req: Pick<VideoCreateRequest, 'model' | 'seconds' | 'resolution'>): Promise<MediaQuote> {
    return quoteMedia(
      this.s,
      { kind: 'video', model: req.model, seconds: req.seconds, resolution: req.resolution },
      vscode.l10n.t('Price unknown: the account feature is off or not loaded yet.'),
    );
  }

  /**
   * Above `confirmAbove`: a modal that names the figure and the limit; true to go on. Below it,
   * or without a figure, true without asking.
   */
  async confirm(q: MediaQuote): Promise<boolean> {
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
  private async confirmUnknown(q: Extract<MediaQuote, { known: false }>): Promise<boolean> {
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

  /**
   * A billed action another agent asked for (a `vscode.lm` tool): VS Code's own confirmation is
   * skipped by a global auto-approve, so this modal, from the extension, names the price (or says
   * it is unknown) and nothing is sent without it, unless the user's daily allowance for agents
   * covers the action's known price. The allowance is read from user settings only.
   */
  async confirmAgent(action: string, quotes: readonly MediaQuote[]): Promise<AgentAnswer> {
    // Loaded on an agent's first billed call: activation has no room for it.
    const { checkAgentAllowance } = await import('../../../platform/agentSpend');
    const allowance = await checkAgentAllowance(this.s, action, quotes);
    if (!allowance.ask) return 'allowed';
    const price = quotes.length === 1 && quotes[0] ? VideoSpend.priceLine(quotes[0]) : agentPriceLine(quotes);
    const go = vscode.l10n.t('Generate (billed)');
    const pick = await this.dialogs.showWarningMessage(
      vscode.l10n.t('Another agent asks to spend money: {0}. Allow it?', action),
      {
        modal: true,
        detail: [
          price,
          vscode.l10n.t(
            "The request came from a chat agent through VS Code's tools, whose confirmation can be auto-approved; this question is Gateway Studio's own.",
          ),
          allowance.why,
        ].join('\n'),
      },
      go,
    );
    if (pick !== go)
      this.s.log.info('agent spend: a billed action asked for by an agent was declined; nothing was sent');
    return pick === go ? 'confirmed' : 'declined';
  }

  /** Keeps the quote shown before the submit beside the new task. */
  async noteQuote(key: string, q: MediaQuote): Promise<void> {
    await this.costs.set(key, q.known ? { quoteLine: q.line, estimate: q.amount } : { quoteLine: q.line });
  }

  costOf(key: string): ClipCost | undefined {
    return this.costs.get(key);
  }

  /** The line for the billed-confirmation modals (gallery) and the tools' confirmations. */
  static priceLine(q: MediaQuote): string {
    if (!q.known) return q.line;
    return q.above !== undefined
      ? vscode.l10n.t('Price: {0} (above your limit of {1})', q.line, q.above)
      : vscode.l10n.t('Price: {0}', q.line);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}
