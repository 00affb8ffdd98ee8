import * as vscode from 'vscode';

import { LEGACY_KEY_SLOT } from '../api/transport/profileIds';

/**
 * The API key lives in SecretStorage only (never settings, global state, the webview or logs).
 * This store is the *active profile's* key (`slot` names its secret; the Default profile's is the
 * one key of earlier versions), so every feature that asks "is a key set" follows a switch.
 * `onDidChange` fires for changes made in this window and in other windows, and on a switch.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly sub: vscode.Disposable;

  /** The active slot as last resolved, for the change events (which are synchronous). */
  private current = LEGACY_KEY_SLOT;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly slot: () => Promise<string> = () => Promise.resolve(LEGACY_KEY_SLOT),
  ) {
    this.sub = secrets.onDidChange((e) => {
      if (e.key === this.current) this.emitter.fire();
    });
  }

  private async resolve(): Promise<string> {
    this.current = await this.slot();
    return this.current;
  }

  async get(): Promise<string | undefined> {
    return this.secrets.get(await this.resolve());
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(await this.resolve(), key);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(await this.resolve());
  }

  /** The active profile changed: whoever watches the key looks again. */
  switched(): void {
    void this.resolve().then(() => this.emitter.fire());
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

/** Why a typed key is refused, or undefined when it is acceptable. */
export function apiKeyProblem(input: string): string | undefined {
  if (input.length === 0) return vscode.l10n.t('The key is empty. Copy it from the API Keys page of the console.');
  if (/\s/.test(input))
    return vscode.l10n.t(
      'The key contains spaces or line breaks. Copy it again from the API Keys page; a web-login password is not an API key.',
    );
  // Header values are ASCII: a key copied with a "…" or a smart quote would fail on every request.
  if (!/^[\x21-\x7e]+$/.test(input))
    return vscode.l10n.t(
      'The key contains a character that is not plain ASCII (such as "…" or a smart quote). Copy it again from the API Keys page.',
    );
  return undefined;
}
