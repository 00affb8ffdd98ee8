// What the runner passes into the extension host (`extensionEnvironment`), and small helpers
// the suites share: the gateway's HTTP control routes, the extension's exports, polling.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GATEWAY_KEYS, SECOND_GATEWAY } from '../gateway/keys';

/** The extension's id (`publisher.name` of package.json). */
export const EXTENSION_ID = 'gateway-studio.gateway-studio';

function need(name: string): string {
  const v = process.env[name];
  if (!v)
    throw new Error(
      `${name} is not set: the integration suite must be started by test/host/run.ts (or test/host/electron.ts), which starts the local gateway`,
    );
  return v;
}

/** The local gateway as the runner started it. */
export const gateway = {
  get url(): string {
    return need('GWS_GATEWAY_URL');
  },
  get videoUrl(): string {
    return need('GWS_GATEWAY_VIDEO_URL');
  },
  // Fixed keys of the local gateway (not passed in: see test/host/gateway.ts).
  validKey: GATEWAY_KEYS.valid,
  noPermissionKey: GATEWAY_KEYS.noPermission,
  noBalanceKey: GATEWAY_KEYS.noBalance,
};

/** The second instance (gateway profiles): its own key, model and required header. */
export const gateway2 = {
  get url(): string {
    return need('GWS_GATEWAY2_URL');
  },
  get videoUrl(): string {
    return need('GWS_GATEWAY2_VIDEO_URL');
  },
  validKey: SECOND_GATEWAY.keys.valid,
  header: SECOND_GATEWAY.requiredHeader,
  model: Object.keys(SECOND_GATEWAY.models)[0]!,
};

/** POSTs to the second instance's `/__control/*` routes. */
export async function control2(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${gateway2.url}/__control/${path}`, {
    method: body === undefined && /^(counts|requests)/.test(path) ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.ok(res.ok, `second gateway control ${path} answered ${res.status}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** POSTs to the gateway's `/__control/*` routes (faults, reset) from the extension host. */
export async function control(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${gateway.url}/__control/${path}`, {
    method: body === undefined && /^(counts|requests)/.test(path) ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.ok(res.ok, `gateway control ${path} answered ${res.status}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The activated extension. */
export async function extension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this host`);
  await ext.activate();
  return ext;
}

/** The key store the extension exports from `activate` (the `keys` member of its services). */
export interface KeyStoreLike {
  get(): Thenable<string | undefined>;
  set(key: string): Thenable<void>;
  clear(): Thenable<void>;
}

/** The extension's key store, read through its exports. */
export async function keyStore(): Promise<KeyStoreLike> {
  const ext = await extension();
  const exp = ext.exports as { keys?: KeyStoreLike } | undefined;
  assert.ok(
    exp?.keys && typeof exp.keys.get === 'function',
    'activate() must return its services with `keys` (the API key store)',
  );
  return exp.keys;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes; fails naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sets a `gatewayStudio.*` user setting and resolves once the configuration event has fired. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const changed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`gatewayStudio.${key}`)) {
        sub.dispose();
        resolve();
      }
    });
  });
  const cfg = vscode.workspace.getConfiguration('gatewayStudio');
  if (JSON.stringify(cfg.inspect(key)?.globalValue) === JSON.stringify(value)) return;
  await cfg.update(key, value, vscode.ConfigurationTarget.Global);
  await Promise.race([changed, new Promise((r) => setTimeout(r, 10_000))]);
}

/**
 * Inside a `describe`: the suite talks to the local gateway with the valid key. Points
 * `gatewayStudio.baseUrl` at the gateway once, resets the gateway (counts, recorded requests,
 * faults) and stores the valid key before each test, drops queued faults after each, and removes
 * the key at the end so the next suite starts without one.
 */
export function useGatewayWithValidKey(): void {
  before(async () => {
    await setSetting('baseUrl', gateway.url);
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
  });
  afterEach(async () => {
    await control('clear');
  });
  after(async () => {
    await (await keyStore()).clear();
  });
}

/**
 * Writes the workspace's .vscode/settings.json as a cloned repository would (VS Code's own API
 * refuses to write an application setting there) and waits until VS Code has read it; restores
 * the file's earlier content when `settings` is undefined.
 */
let savedSettings: string | undefined;
export async function writeWorkspaceSettings(settings: Record<string, unknown> | undefined): Promise<void> {
  const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
  const marker = 'gatewayStudio.models.overrides';
  const changed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(marker)) {
        sub.dispose();
        resolve();
      }
    });
  });
  if (settings) {
    savedSettings ??= await fs.readFile(file, 'utf8').catch(() => '{}');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ ...settings, [marker]: { 'gw-marker': {} } }));
  } else {
    if (savedSettings === undefined) return;
    await fs.writeFile(file, savedSettings);
    savedSettings = undefined;
  }
  await changed;
}
