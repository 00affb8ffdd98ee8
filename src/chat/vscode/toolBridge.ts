import * as vscode from 'vscode';
import type { HostMessage, ToolChoiceSetting, ToolDecision, ToolInfo } from '../../shared/protocol';
import type { Routes } from '../conversation/core/routes';
import type { ToolSettingChange } from '../tools/vscode/chatPort';
import type { AskAnswer } from '../tools/core/builtin/askUser';

/**
 * Where the chat meets the tools feature: the clicks on approval cards and in the tools menu go
 * out as events, and the menu's contents come in (kept for a view that is loaded later).
 */
export class ToolBridge implements vscode.Disposable {
  private readonly decisions = new vscode.EventEmitter<{ callId: string; decision: ToolDecision }>();
  private readonly settings = new vscode.EventEmitter<ToolSettingChange>();
  /** The tools menu as last posted. */
  private menu: HostMessage | undefined;

  readonly onToolDecision = this.decisions.event;
  readonly onToolSettings = this.settings.event;

  constructor(private readonly broadcast: (msg: HostMessage) => void) {}

  /** ask_user's answers go to the tools feature, which says why one cannot be taken. */
  private answers: ((callId: string, answer: AskAnswer) => string | undefined) | undefined;

  readonly routes: Routes<
    'tools/decide' | 'tools/answer' | 'tools/setEnabled' | 'tools/setTrusted' | 'tools/setChoice'
  > = {
    'tools/decide': (m) => this.decisions.fire({ callId: m.callId, decision: m.decision }),
    'tools/answer': (m) => {
      const problem = this.answers?.(m.callId, m.answer) ?? (this.answers ? undefined : 'no question waits');
      if (problem !== undefined)
        this.broadcast({
          type: 'chat/notice',
          level: 'warning',
          text: vscode.l10n.t('Your answer was not taken: {0}', problem),
        });
    },
    'tools/setEnabled': (m) => this.settings.fire({ kind: 'enabled', name: m.name, enabled: m.enabled }),
    'tools/setTrusted': (m) => this.settings.fire({ kind: 'trusted', name: m.name, trusted: m.trusted }),
    'tools/setChoice': (m) => this.settings.fire({ kind: 'choice', choice: m.choice }),
  };

  onToolAnswer(take: (callId: string, answer: AskAnswer) => string | undefined): vscode.Disposable {
    this.answers = take;
    return new vscode.Disposable(() => {
      if (this.answers === take) this.answers = undefined;
    });
  }

  /** Feeds the tools menu of every chat view. */
  postTools(tools: ToolInfo[], choice: ToolChoiceSetting): void {
    this.menu = { type: 'tools/list', tools, choice };
    this.broadcast(this.menu);
  }

  /** The tools the user has enabled and every tool listed, by wire name (a prompt file's `tools` narrows these). */
  toolNames(): { enabled: string[]; known: string[] } {
    const tools = this.menu?.type === 'tools/list' ? this.menu.tools : [];
    return { enabled: tools.filter((t) => t.enabled).map((t) => t.name), known: tools.map((t) => t.name) };
  }

  /** The tools menu for a view that is (re)loaded, once the tools feature posted it. */
  messages(): HostMessage[] {
    return this.menu ? [this.menu] : [];
  }

  dispose(): void {
    this.decisions.dispose();
    this.settings.dispose();
  }
}
