import * as vscode from 'vscode';
import { walkthroughShownKey } from '../contracts/persistedState/platform';
import { persistedState } from './persistedState';
import type { Services } from './services';

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';

/**
 * Context keys the walkthrough's steps complete on (`onContext:` completion events). Each is set
 * by the thing it stands for: a key in secret storage, a successful Check Connection, a video task
 * the gateway accepted. The other two steps complete on a setting and a command.
 */
export const STEP_CONTEXT = {
  apiKeySet: 'gatewayStudio.apiKeySet',
  connectionOk: 'gatewayStudio.connectionOk',
  videoStarted: 'gatewayStudio.videoStarted',
} as const;
export type StepContext = keyof typeof STEP_CONTEXT;

/** What the extension last set, by context key: VS Code offers no way to read a context key back. */
const lastSet = new Map<string, boolean>();

/** Sets one of the walkthrough's context keys (a step completes when its key becomes true). */
export function setStepContext(step: StepContext, value: boolean): void {
  const key = STEP_CONTEXT[step];
  if (lastSet.get(key) === value) return;
  lastSet.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

/** For integration tests (through the extension's exports). */
export interface WalkthroughApi {
  readonly id: string;
  /** The value the extension last gave a step's context key. */
  context(step: StepContext): boolean | undefined;
  /**
   * Opens the walkthrough if it has never been opened for this user; true when it did. Outside
   * production (tests, the development host) only when `force` says so.
   */
  openOnFirstStart(force?: boolean): Promise<boolean>;
  /** Forgets that it was opened (tests). */
  resetFirstStart(): Thenable<void>;
}

/**
 * Keeps the API-key step's context key in line with secret storage, and opens the walkthrough on
 * the first start after installing (not in tests or the development host unless asked).
 */
export function registerWalkthrough(s: Services): WalkthroughApi {
  const { context } = s;
  const syncKey = async (): Promise<void> => setStepContext('apiKeySet', Boolean(await s.keys.get()));
  void syncKey();
  context.subscriptions.push(s.keys.onDidChange(() => void syncKey()));
  const fullId = `${context.extension.id}#${WALKTHROUGH_ID}`;
  const api: WalkthroughApi = {
    id: fullId,
    context: (step) => lastSet.get(STEP_CONTEXT[step]),
    openOnFirstStart: async (force = false) => {
      if (persistedState(context).get(walkthroughShownKey)) return false;
      if (!force && context.extensionMode !== vscode.ExtensionMode.Production) return false;
      await persistedState(context).set(walkthroughShownKey, true);
      s.log.info('first start: opening the Get Started walkthrough');
      await vscode.commands.executeCommand('workbench.action.openWalkthrough', fullId, false);
      return true;
    },
    resetFirstStart: () => persistedState(context).set(walkthroughShownKey, undefined),
  };
  void api.openOnFirstStart().catch((e: unknown) => s.log.warn(`could not open the walkthrough: ${String(e)}`));
  return api;
}
