import * as vscode from 'vscode';
import { GatewayClient } from '../../../api/client';
import { isGatewayError, type GatewayErrorKind } from '../../../api/transport/errors';
import { describeError, type GatewayErrorAction } from '../../../contracts/errorWords';
import { isVideoModel, type ModelRecord } from '../../../api/models/models';
import { actionLabel, gatewayHttpOptions, getGatewayClient, runErrorAction } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { readSettings, updateSetting } from '../../../platform/settings';

/** What Check Connection found; returned by the command so integration tests can assert it. */
export interface ConnectionCheckResult {
  ok: boolean;
  /** The normalised `/v1` URL that was called (absent when the setting itself is unusable). */
  baseUrl?: string;
  /** What normalisation changed or found risky (e.g. `http://` to a remote host). */
  warnings: string[];
  keySet: boolean;
  /** HTTP status of `GET /v1/models`, when an answer came. */
  status?: number;
  modelCount?: number;
  models?: string[];
  latencyMs?: number;
  errorKind?: GatewayErrorKind;
  /** The text shown to the user. */
  title: string;
  detail: string;
  actions: GatewayErrorAction[];
}

/**
 * Calls `GET /v1/models` with the current settings and key, never throwing: every outcome,
 * including a missing base URL, becomes a {@link ConnectionCheckResult} in plain words.
 */
export async function checkConnection(s: Services, signal?: AbortSignal): Promise<ConnectionCheckResult> {
  const keySet = Boolean(await s.keys.get());
  let client: GatewayClient;
  try {
    // A fresh client, not the cached one: the check must not reuse anything learnt before.
    client = new GatewayClient(await gatewayHttpOptions(s, 'chat'));
  } catch (e) {
    const d = describeError(e);
    return { ok: false, warnings: [], keySet, errorKind: isGatewayError(e) ? e.kind : undefined, ...d };
  }
  const baseUrl = client.http.baseUrl;
  const warnings = [...client.http.warnings];
  const keyLine = keySet
    ? vscode.l10n.t('An API key is set.')
    : vscode.l10n.t('No API key is set (run "Gateway Studio: Set API Key").');
  const started = Date.now();
  try {
    const models = await client.listModels(signal);
    const latencyMs = Date.now() - started;
    const detail = [
      vscode.l10n.t('GET {0}/models answered 200 OK in {1} ms with {2} models.', baseUrl, latencyMs, models.length),
      keyLine,
      ...warnings,
    ].join(' ');
    return {
      ok: true,
      baseUrl,
      warnings,
      keySet,
      status: 200,
      modelCount: models.length,
      models: models.map((m) => m.id),
      latencyMs,
      title: vscode.l10n.t('Connected to the gateway'),
      detail,
      actions: [],
    };
  } catch (e) {
    const latencyMs = Date.now() - started;
    const d = describeError(e);
    const status = isGatewayError(e) ? e.status : undefined;
    const outcome =
      status !== undefined
        ? vscode.l10n.t('GET {0}/models answered HTTP {1} after {2} ms.', baseUrl, status, latencyMs)
        : vscode.l10n.t('GET {0}/models failed after {1} ms.', baseUrl, latencyMs);
    const actions = d.actions.includes('showLog') ? d.actions : [...d.actions, 'showLog' as const];
    return {
      ok: false,
      baseUrl,
      warnings,
      keySet,
      status,
      latencyMs,
      errorKind: isGatewayError(e) ? e.kind : undefined,
      title: d.title,
      detail: [outcome, keyLine, d.detail, ...warnings].join(' '),
      actions: keySet ? actions : ['setApiKey', ...actions.filter((a) => a !== 'setApiKey')],
    };
  }
}

const MANUAL = Symbol('manual');
type ModelPick = vscode.QuickPickItem & { id: string | typeof MANUAL };

function modelItem(m: ModelRecord, current: string): ModelPick {
  const caps = [...new Set([...(m.capabilities ?? []), ...(m.modalities ?? [])])];
  return {
    id: m.id,
    label: m.id === current ? `$(check) ${m.id}` : m.id,
    description: caps.length > 0 ? caps.join(', ') : undefined,
    detail: m.owned_by ? vscode.l10n.t('by {0}', m.owned_by) : undefined,
  };
}

/** Why a typed model ID is refused, or undefined. */
export function modelIdProblem(v: string): string | undefined {
  if (v.trim() === '') return vscode.l10n.t('Enter a model ID.');
  if (/\s/.test(v.trim())) return vscode.l10n.t('A model ID has no spaces.');
  return undefined;
}

async function askModelId(current: string): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Gateway Studio: Enter a Model ID'),
    prompt: vscode.l10n.t('A model ID the gateway accepts but does not list, exactly as the console shows it.'),
    value: current,
    ignoreFocusOut: true,
    validateInput: modelIdProblem,
  });
  return typed === undefined ? undefined : typed.trim();
}

/**
 * Lets the user pick the chat model from `GET /v1/models` (video-only models left out), or type
 * one the list does not show, and writes `gatewayStudio.chatModel`. Passing `modelId` skips the
 * UI (used by tests and other commands). Resolves with the model written, or undefined.
 */
export async function selectChatModel(s: Services, modelId?: string): Promise<string | undefined> {
  if (typeof modelId === 'string') {
    const problem = modelIdProblem(modelId);
    if (problem) {
      void vscode.window.showErrorMessage(problem);
      return undefined;
    }
    await updateSetting('chatModel', modelId.trim());
    return modelId.trim();
  }
  const current = readSettings().chatModel;
  const qp = vscode.window.createQuickPick<ModelPick>();
  qp.title = vscode.l10n.t('Gateway Studio: Select Chat Model');
  qp.placeholder = vscode.l10n.t('Loading models from the gateway…');
  qp.busy = true;
  qp.matchOnDescription = true;
  const manual: ModelPick = {
    id: MANUAL,
    label: vscode.l10n.t('$(edit) Enter a model ID…'),
    description: vscode.l10n.t('for a model the list does not show'),
    alwaysShow: true,
  };
  qp.items = [manual];
  const ctrl = new AbortController();
  const picked = new Promise<ModelPick | undefined>((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      ctrl.abort();
      resolve(undefined);
    });
  });
  qp.show();
  void (async () => {
    try {
      const client = await getGatewayClient(s, 'chat');
      const models = (await client.listModels(ctrl.signal)).filter((m) => !isVideoModel(m));
      const items = models.map((m) => modelItem(m, current));
      qp.items = [...items, { id: MANUAL, label: '', kind: vscode.QuickPickItemKind.Separator }, manual];
      qp.activeItems = items.filter((i) => i.id === current);
      qp.placeholder = vscode.l10n.t(
        '{0} chat models; the current one is {1}',
        models.length,
        current || vscode.l10n.t('not set'),
      );
    } catch (e) {
      if (isGatewayError(e, 'aborted')) return;
      const d = describeError(e);
      s.log.warn(`model list failed: ${d.title}: ${d.detail}`);
      qp.placeholder = vscode.l10n.t('Could not load the model list ({0}); you can still enter a model ID.', d.title);
    } finally {
      qp.busy = false;
    }
  })();
  const choice = await picked;
  qp.dispose();
  if (!choice) return undefined;
  const id = choice.id === MANUAL ? await askModelId(current) : choice.id;
  if (!id) return undefined;
  await updateSetting('chatModel', id);
  s.log.info(`chat model set to ${id}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Gateway Studio: chat model set to {0}.', id));
  return id;
}

/** Shows a Check Connection result without waiting for the user. */
export function report(s: Services, r: ConnectionCheckResult): void {
  const text = `${r.title}. ${r.detail}`;
  if (r.ok) {
    s.log.info(text);
    if (r.warnings.length > 0) void vscode.window.showWarningMessage(text);
    else void vscode.window.showInformationMessage(text);
    return;
  }
  s.log.warn(text);
  const actions = r.actions;
  const labels = actions.map(actionLabel);
  void vscode.window.showErrorMessage(text, ...labels).then((p) => {
    const a = p === undefined ? undefined : actions[labels.indexOf(p)];
    return a ? runErrorAction(a, () => vscode.commands.executeCommand('gatewayStudio.checkConnection')) : undefined;
  });
}

/** Registers Check Connection and Select Chat Model. */
