import type * as vscode from 'vscode';
import type { VideoCreateRequest, VideoRuleIssue } from '../../../api/video/videoRules';
import type { MediaQuote } from '../../../platform/mediaSpend';
import type { ClipCost } from '../../jobs/core/costs';
import type { VideoJobManager } from '../../jobs/core/manager';
import type { VideoTaskRecord } from '../../jobs/core/record';

/** Command the status-bar item runs: the task list (the gallery). */
export const SHOW_TASKS_COMMAND = 'gatewayStudio.video.showTasks';
export const PICK_TASK_COMMAND = 'gatewayStudio.video.pickTask';

/**
 * What the video feature's surfaces (commands, the gallery, the language-model and chat tools)
 * share: the one job manager and the one way to start a task, so that every task is validated,
 * persisted before its POST, shown in the status bar and never submitted twice.
 */
/** A checked generate input (a tool's or the gallery form's): what will be sent, or why not. */
export type VideoPlan =
  { ok: true; request: VideoCreateRequest; labels: string[] } | { ok: false; issues: VideoRuleIssue[] };

export interface VideoFeature {
  readonly manager: VideoJobManager;
  /** Any record changed or was removed (after it was stored). */
  readonly onDidChange: vscode.Event<{ record: VideoTaskRecord; removed: boolean }>;
  /** The folder videos are saved to now, without asking (undefined: no folder open, none chosen). */
  outputDir(): string | undefined;
  /**
   * Validates and submits through the manager. Throws a `validation` GatewayError naming each
   * broken rule (nothing sent), or a config error when no gateway is set up.
   */
  start(request: VideoCreateRequest, imageLabels: string[], o?: StartOptions): Promise<VideoTaskRecord>;
  /** What the request would cost, from the account feature's cached prices ("unknown" without them). */
  quote(request: Pick<VideoCreateRequest, 'model' | 'seconds' | 'resolution'>): Promise<MediaQuote>;
  /**
   * A billed action another agent asked for through `vscode.lm`: our own modal naming the price
   * (VS Code's confirmation may be auto-approved), unless the user's daily allowance for agents
   * covers it. `confirmed` named the price, so `confirmAbove` need not ask again.
   */
  confirmAgent(action: string, quotes: readonly MediaQuote[]): Promise<'allowed' | 'confirmed' | 'declined'>;
  /**
   * Checks a generate input as the agent tools take it (settings fill the gaps, workspace images
   * become data URLs) without side effects: the gallery's form goes the tools' way.
   */
  plan(input: unknown): Promise<VideoPlan>;
  /** The estimate and the charge kept for a task. */
  costOf(key: string): ClipCost | undefined;
  /** The video model a request names when it names none: the active profile's, else the setting. */
  videoModel(): string;
}

export interface StartOptions {
  /**
   * The caller's own billed-confirmation already named the price (the gallery's modal), so a
   * price above `gatewayStudio.spend.confirmAbove` does not ask a second time. Otherwise `start`
   * asks in a modal and throws `SpendDeclined` when the user declines (nothing is sent).
   */
  priceConfirmed?: boolean;
}
