// What the chat's system prompt is built from on the host side: the editor's environment and the
// rules files, the chips' messages, and "Show what is sent".
import * as vscode from 'vscode';
import { readSettings } from '../../../platform/settings';
import type { Conversation, HostMessage, WebviewMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';
import type { PromptSnapshot } from '../core/systemPrompt';
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

export class PromptContext implements vscode.Disposable {
  readonly environment = new EditorEnvironment();
  readonly rules: RulesSource;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly o: PromptContextOptions) {
    this.rules = new RulesSource(o);
    this.disposables = [this.environment, this.rules, this.rules.onDidChange(() => void this.post())];
  }

  /**
   * The present state, for a request of `c` (asked again for every one), with the nested
   * `AGENTS.md` rules of the files and folders mentioned in `c` after the workspace's own.
   */
  async snapshot(c?: Conversation): Promise<PromptSnapshot> {
    const { rules } = await this.rules.read();
    const mentioned = c ? mentionedUris(c) : [];
    const nested = mentioned.length > 0 ? await this.rules.nestedFor(mentioned) : [];
    return {
      environment: readSettings().chat.environmentContext ? this.environment.snapshot() : undefined,
      rules: [...rules, ...nested.filter((r) => !rules.some((x) => x.id === r.id))],
      rulesBlocked: this.rules.blocked,
      untrusted: this.rules.untrusted,
    };
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
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * The workspace files and folders the conversation's messages mention. Attachment paths are
 * workspace-relative, with the folder's name first in a multi-root workspace (as
 * `asRelativePath` gives them).
 */
function mentionedUris(c: Conversation): vscode.Uri[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const out = new Map<string, vscode.Uri>();
  for (const m of c.messages) {
    if (m.role !== 'user') continue;
    for (const a of m.attachments ?? []) {
      if (!a.path) continue;
      const folder = folders.length > 1 ? folders.find((f) => a.path!.startsWith(`${f.name}/`)) : folders[0];
      if (!folder) continue;
      const rel = folders.length > 1 ? a.path.slice(folder.name.length + 1) : a.path;
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      out.set(uri.toString(), uri);
    }
  }
  return [...out.values()];
}
