import * as vscode from 'vscode';
import { userValue } from './userSettings';
import { GatewayClient } from '../api/client';
import { GatewayError } from '../api/transport/errors';
import { describeError, type ErrorDescription, type GatewayErrorAction } from '../contracts/errorWords';
import type { HttpOptions, LogLevel } from '../api/transport/http';
import type { Logger } from './log';
import type { Services } from './services';
import { readSettings, type Settings } from './settings';
import { DEFAULT_PROFILE_ID } from './profiles';
import { persistedState } from './persistedState';
import { balanceSourcesKey } from '../contracts/persistedState/account';

/** Which host a client talks to: the chat base URL, or the video base URL (empty = the chat one). */
export type GatewayHost = 'chat' | 'video';

/** Adapts the extension's {@link Logger} to the client's `log` callback. */
export function logAdapter(log: Logger): (level: LogLevel, msg: string) => void {
  return (level, msg) => log[level](msg);
}

/**
 * The client options for a profile (the active one unless `profileId` names one) and its key in
 * SecretStorage. Throws `GatewayError('config')` when the base URL is empty or invalid, naming the
 * setting, and when the profile is gone, broken or has no key, naming the profile: a request is
 * never sent with another profile's address or key.
 */
export async function gatewayHttpOptions(
  s: Services,
  host: GatewayHost = 'chat',
  settings: Settings = readSettings(),
  profileId?: string,
): Promise<HttpOptions> {
  await s.profiles.ready();
  const profile = profileId === undefined ? s.profiles.active() : s.profiles.get(profileId);
  if (!profile) {
    throw new GatewayError(
      'config',
      vscode.l10n.t(
        'The gateway profile "{0}" no longer exists (gatewayStudio.profiles), so nothing was sent. Switch to another profile or add it again.',
        profileId ?? '',
      ),
      { field: 'gatewayStudio.profiles' },
    );
  }
  if (profile.problems.length > 0)
    throw new GatewayError('config', profile.problems.join(' '), { field: 'gatewayStudio.profiles' });
  let baseUrl: string;
  if (profile.id === DEFAULT_PROFILE_ID) {
    // Through the origin gate, not `settings.baseUrl`: a workspace's value needs the user's yes.
    const video = host === 'video' ? await s.origins.address('videoBaseUrl') : '';
    baseUrl = video.trim() !== '' ? video : await s.origins.address('baseUrl');
  } else {
    // A profile's addresses come from the user's settings only (GatewayProfiles.list).
    baseUrl = host === 'video' && profile.videoBaseUrl !== '' ? profile.videoBaseUrl : profile.baseUrl;
  }
  if (baseUrl.trim() === '') {
    throw new GatewayError(
      'config',
      vscode.l10n.t(
        'The base URL is not set. Open the settings and enter the gateway address (gatewayStudio.baseUrl).',
      ),
      {
        field: 'gatewayStudio.baseUrl',
      },
    );
  }
  const apiKey = await s.profiles.keyOf(profile.id);
  if (!apiKey && profile.id !== DEFAULT_PROFILE_ID) {
    throw new GatewayError(
      'config',
      vscode.l10n.t(
        'The gateway profile "{0}" has no API key, so nothing was sent (another profile\'s key is never used). Switch to it and run "Set API Key".',
        profile.name,
      ),
      { field: 'apiKey' },
    );
  }
  return {
    baseUrl,
    apiKey,
    headers: profile.headers,
    modelHeaders: s.profiles.modelHeaders(profile.id, (p) => s.log.warn(p)),
    timeoutMs: settings.network.requestTimeoutSeconds * 1000,
    idleTimeoutMs: settings.network.streamIdleTimeoutSeconds * 1000,
    maxRetries: settings.network.maxRetries,
    log: logAdapter(s.log),
    proxy: proxySetting(),
    noProxy: vscode.workspace.getConfiguration('http').get<string[]>('noProxy') ?? [],
    // Only the user's own settings may allow the key to travel in clear.
    allowInsecureHttp: userValue('network.allowInsecureHttp') === true,
    maxAnswerBytes: userMegabytes('chat.maxAnswerMegabytes', 16),
    maxDownloadBytes: userMegabytes('video.maxDownloadMegabytes', 2048),
  };
}

/** A size limit in bytes from the user's own settings only (src/platform/userSettings.ts), else its default. */
function userMegabytes(key: string, fallback: number): number {
  const v = userValue(key);
  return (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback) * 1024 * 1024;
}

/** VS Code's `http.proxy` (or the environment's), which its fetch applies; for error messages. */
function proxySetting(): string | undefined {
  const set = vscode.workspace.getConfiguration('http').get<string>('proxy')?.trim();
  return (
    set ||
    process.env.HTTPS_PROXY ||
    process.env.https_proxy ||
    process.env.HTTP_PROXY ||
    process.env.http_proxy ||
    undefined
  );
}

/**
 * The clients this copy of the module built, by host and profile. Kept here, not in Services: a
 * test bundle that drives the product's classes over the extension's Services builds clients of
 * its own classes, so its `instanceof` and error checks hold.
 */
const clients = new Map<string, { services: Services; signature: string; client: GatewayClient }>();

/**
 * A {@link GatewayClient} for the current settings and key, built complete: its answers go to
 * `s.usage`, its models are routed by `s.modelRouting`. The same instance is returned while
 * neither changes, so what it learnt (a gateway that rejects `stream_options`) is kept; a change
 * of either builds a fresh one on the next call.
 */
export async function getGatewayClient(
  s: Services,
  host: GatewayHost = 'chat',
  profileId?: string,
): Promise<GatewayClient> {
  const o = await gatewayHttpOptions(s, host, undefined, profileId);
  const slot = `${host}:${profileId ?? s.profiles.activeId()}`;
  const signature = optionsSignature(o);
  const hit = clients.get(slot);
  if (hit && hit.services === s && hit.signature === signature) return hit.client;
  // The hooks name the gateway by the client's own base URL (normalised by it) when they run.
  const gateway = (): string => client.http.baseUrl;
  const profile = profileId ?? s.profiles.activeId();
  const client: GatewayClient = new GatewayClient(o, {
    observer: (a) => s.usage.emit({ kind: 'answer', gateway: gateway(), profile, ...a }),
    routing: s.modelRouting.hooks(gateway),
    // Where the account found this gateway's balance decides whose per-answer cost is read.
    billingSource: () => persistedState(s.context).get(balanceSourcesKey)[gateway()],
  });
  for (const w of client.http.warnings) s.log.warn(`${host} base URL: ${w}`);
  clients.set(slot, { services: s, signature, client });
  return client;
}

/** What makes two clients the same: the key is part of it but never kept in clear outside the client. */
function optionsSignature(o: HttpOptions): string {
  return JSON.stringify([
    o.baseUrl,
    o.timeoutMs,
    o.idleTimeoutMs,
    o.maxRetries,
    o.proxy ?? '',
    o.noProxy ?? [],
    o.allowInsecureHttp === true,
    o.maxAnswerBytes,
    o.maxDownloadBytes,
    o.apiKey ? hash(o.apiKey) : '',
    hash(JSON.stringify([o.headers, o.modelHeaders])),
  ]);
}

/** A short non-reversible fingerprint (FNV-1a), enough to notice that the key changed. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/** Button labels for the actions of `describeError`, in the user's language. */
export function actionLabel(a: GatewayErrorAction): string {
  switch (a) {
    case 'setApiKey':
      return vscode.l10n.t('Set API Key');
    case 'openSettings':
      return vscode.l10n.t('Open Settings');
    case 'retry':
      return vscode.l10n.t('Retry');
    case 'showLog':
      return vscode.l10n.t('Show Log');
  }
}

/**
 * Runs one of `describeError`'s actions (plus the chat's Select Model): the one place an error
 * button becomes a command, for notifications, Check Connection and the chat panel alike.
 */
export async function runErrorAction(a: GatewayErrorAction | 'selectModel', retry?: () => unknown): Promise<void> {
  switch (a) {
    case 'selectModel':
      await vscode.commands.executeCommand('gatewayStudio.selectChatModel');
      return;
    case 'setApiKey':
      await vscode.commands.executeCommand('gatewayStudio.setApiKey');
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:gateway-studio.gateway-studio');
      return;
    case 'retry':
      await retry?.();
      return;
    case 'showLog':
      await vscode.commands.executeCommand('gatewayStudio.showLog');
      return;
  }
}

/**
 * Shows an error as a notification with its actions as buttons (Retry only when `retry` is given),
 * logs it, and returns without waiting for the user, so callers and tests never hang on a toast.
 */
export function showGatewayError(s: Services, err: unknown, retry?: () => unknown): ErrorDescription {
  const d = describeError(err);
  s.log.error(`${d.title}: ${d.detail}`);
  const actions = d.actions.filter((a) => a !== 'retry' || retry !== undefined);
  const labels = actions.map(actionLabel);
  void vscode.window
    .showErrorMessage(`${d.title}. ${d.detail}`, ...labels)
    .then((picked) => {
      const i = picked === undefined ? -1 : labels.indexOf(picked);
      const a = actions[i];
      if (a) return runErrorAction(a, retry);
      return undefined;
    })
    .then(undefined, (e: unknown) => {
      // A button's command failing (a retry that fails again, say) must not become an unhandled
      // rejection in the extension host; the log keeps it.
      s.log.error(`The "${d.title}" notification action failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  return d;
}
