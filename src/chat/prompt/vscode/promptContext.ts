// What the chat's system prompt is built from on the host side: the editor's environment and the
// rules files, the chips' messages, and "Show what is sent".
import * as vscode from 'vscode';
import { readSettings } from '../../../platform/settings';
import type { Conversation, HostMessage, WebviewMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';
import type { PromptSnapshot, RuleFile } from '../core/systemPrompt';
import { appliedRules } from './appliedRules';
import { EditorEnvironment } from './environment';
import { RulesSource, type RulesOptions } from './rules';

export type RulesMessage = Extract<
  WebviewMessage,
  { type: 'prompt/setRuleEnabled' | 'prompt/openRule' | 'prompt/allowUntrustedRules' | 'prompt/show' }
>;

export interface PromptContextOptions extends RulesOptions {
  broadcast(msg: HostMessage): void;
  /** The rules or the views changed: the session takes a new snapshot for its meter. */
  promptChanged(): Promise<void>;
  /** A rules chip was switched: the session stores it with the conversation. */
  setRuleEnabled(id: string, enabled: boolean): Promise<void>;
  /** The system prompt of the shown conversation's next request. */
  nextSystemPrompt(): Promise<string>;
}

/** How long the active editor must stay before scoped instructions are matched against it again. */
const ACTIVE_SETTLE_MS = 400;

export class PromptContext implements vscode.Disposable {
  readonly environment = new EditorEnvironment();
  readonly rules: RulesSource;
  private readonly disposables: vscode.Disposable[];

  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: PromptContextOptions) {
    this.rules = new RulesSource(o);
    this.disposables = [
      this.environment,
      this.rules,
      this.rules.onDidChange(() => void this.post()),
      // A scoped instructions file may apply to the file the user switched to: the chips and the
      // meter follow once the editor settles (only when there is such a file).
      vscode.window.onDidChangeActiveTextEditor(() => {
        if (this.rules.scoped.length === 0) return;
        clearTimeout(this.settle);
        this.settle = setTimeout(() => void this.o.promptChanged(), ACTIVE_SETTLE_MS);
      }),
    ];
  }

  /**
   * The present state, for a request of `c` (asked again for every one): the always-on rules, then
   * the nested and scoped ones that apply to `c` (./appliedRules), whose chips follow.
   */
  async snapshot(c?: Conversation): Promise<PromptSnapshot> {
    const { rules } = await this.rules.read();
    const applied = await appliedRules(this.rules, rules, c);
    if (this.rules.setApplied(applied.rules, applied.warnings, applied.notes))
      this.o.broadcast(await this.rules.message(false));
    return {
      environment: readSettings().chat.environmentContext ? this.environment.snapshot() : undefined,
      rules: [...rules, ...applied.rules],
      rulesBlocked: this.rules.blocked,
      untrusted: this.rules.untrusted,
    };
  }

  /** The nested rules files that apply to `files` (mentioned), outermost first. */
  async nestedFor(files: vscode.Uri[]): Promise<RuleFile[]> {
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const attachments = files.map((f) => ({
      kind: 'file' as const,
      label: '',
      text: '',
      path: vscode.workspace.asRelativePath(f, multi),
    }));
    const c = {
      messages: [{ id: 'm', role: 'user' as const, text: '', images: [], contexts: [], attachments, createdAt: 0 }],
    };
    const applied = await appliedRules(this.rules, [], c as unknown as Conversation);
    return applied.rules.filter((r) => r.kind === 'nested');
  }

  /** Sends the chips' state to every chat view. */
  async post(): Promise<void> {
    this.o.broadcast(await this.rules.message());
    await this.o.promptChanged();
  }

  /** The rules chips' messages and "Show what is sent". */
  readonly routes: Routes<RulesMessage['type']> = {
    'prompt/setRuleEnabled': (m) => this.o.setRuleEnabled(m.id, m.enabled),
    'prompt/openRule': (m) => this.openRule(m.id),
    'prompt/allowUntrustedRules': () => this.rules.allowUntrusted(),
    'prompt/show': async () => void (await this.showSystemPrompt()),
  };

  /** Opens the exact system prompt of the next request in an untitled Markdown editor. */
  async showSystemPrompt(): Promise<vscode.TextDocument> {
    const content = await this.o.nextSystemPrompt();
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    // The preview becomes the active editor: it must not become the "active file" it describes.
    this.environment.ignore(doc);
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return doc;
  }

  private async openRule(id: string): Promise<void> {
    const path = this.rules.pathOf(id);
    if (!path) return;
    await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
  }

  dispose(): void {
    clearTimeout(this.settle);
    for (const d of this.disposables) d.dispose();
  }
}
