import * as vscode from 'vscode';
import type { ToolChoiceSetting, TrustStore } from '../core/runner';
import { loadState, saveState, toolStateKey } from '../../../contracts/persistedState/chat';

interface Stored {
  /**
   * Explicit on/off per tool key (a built-in tool's name; `lm:…` for an outside tool, see
   * core/externalToolNames); built-in tools default to on, tools of other extensions to off.
   */
  enabled: Record<string, boolean>;
  trusted: string[];
  choice: ToolChoiceSetting;
}

/**
 * Which tools are enabled and trusted, and the `tool_choice` pick, per workspace. Kept in
 * `workspaceState`, not settings: a repository's `.vscode/settings.json` is written by whoever
 * made the repository, and must never be able to pre-trust `run_command` for the person who
 * opens it.
 */
export class ToolState implements TrustStore, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires after any change (enabled, trusted, choice). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly memento: vscode.Memento) {}

  private read(): Stored {
    return loadState(this.memento, toolStateKey);
  }

  private async write(next: Stored): Promise<void> {
    await saveState(this.memento, toolStateKey, next);
    this.emitter.fire();
  }

  isEnabled(name: string, defaultOn: boolean): boolean {
    return this.read().enabled[name] ?? defaultOn;
  }

  async setEnabled(name: string, on: boolean): Promise<void> {
    const s = this.read();
    await this.write({ ...s, enabled: { ...s.enabled, [name]: on } });
  }

  isTrusted(name: string): boolean {
    return this.read().trusted.includes(name);
  }

  trusted(): string[] {
    return this.read().trusted;
  }

  async trust(name: string): Promise<void> {
    await this.setTrusted(name, true);
  }

  async setTrusted(name: string, on: boolean): Promise<void> {
    const s = this.read();
    const set = new Set(s.trusted);
    if (on) set.add(name);
    else set.delete(name);
    await this.write({ ...s, trusted: [...set].sort() });
  }

  choice(): ToolChoiceSetting {
    return this.read().choice;
  }

  async setChoice(choice: ToolChoiceSetting): Promise<void> {
    await this.write({ ...this.read(), choice });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
