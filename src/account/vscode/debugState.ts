import * as vscode from 'vscode';
import type { AccountSnapshot } from '../balance/core/accountState';
import type { AccountFeature } from './feature';

/** Hidden: what the balance item shows, for the host tests (registered in test builds only). */
const ACCOUNT_DEBUG_STATE_COMMAND = 'gatewayStudio.spend.debugState';

/** What the debug-state command returns. */
export interface AccountDebugState {
  /** The item's text without its icon (`$25.00`), empty while hidden. */
  figure: string;
  visible: boolean;
  warn: boolean;
  tooltip: string[];
  status?: AccountSnapshot['status'];
  /** Why the balance is unavailable (as logged). */
  why?: string;
  quota?: number;
  todayQuota?: number;
  /** Reads of the balance made so far (settled). */
  reads: number;
  /** Answers and clips counted, and the last failure to count one. */
  events: number;
  lastError?: string;
  /** Images the ledger counted (every day, every gateway). */
  images: number;
  /** The daily-limit warnings said in this window (the last few). */
  dailyWarnings: string[];
  /** The gateway clips are billed to when it is not the one shown (`videoBaseUrl` with an account). */
  videoAccount?: string;
}

function accountDebugState(a: AccountFeature): AccountDebugState {
  const m = a.bar.model;
  const snap = a.shown?.state.snapshot();
  return {
    figure: m.visible ? m.figure : '',
    visible: m.visible,
    warn: m.warn,
    tooltip: m.tooltip,
    status: snap?.status,
    why: snap?.why,
    quota: snap?.reading?.quota,
    todayQuota: snap?.todayQuota,
    reads: a.reads,
    events: a.events,
    lastError: a.lastError,
    images: a.ledger.rows().reduce((n, r) => n + (r.images ?? 0), 0),
    dailyWarnings: a.spend.warnings(),
    ...(a.videoAccount ? { videoAccount: a.videoAccount.gateway } : {}),
  };
}

export function registerAccountDebugState(a: AccountFeature): vscode.Disposable {
  return vscode.commands.registerCommand(ACCOUNT_DEBUG_STATE_COMMAND, () => accountDebugState(a));
}
