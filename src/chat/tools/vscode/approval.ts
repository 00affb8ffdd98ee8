import * as vscode from 'vscode';
import { approvalDetail, firstLines } from '../core/approvalText';
import type { ApprovalRequest, ToolDecision } from '../core/runner';

/** Where the chat's cards are answered; `visible` says whether the user can see them now. */
export interface DecisionSource {
  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable;
  /** True/false when the chat knows whether a chat view is on screen; undefined when it cannot tell. */
  chatVisible?(): boolean | undefined;
}

/**
 * Asks the user about one tool call. The card in the chat is always there (the runner posts it);
 * when the chat is not known to be on screen, a fallback asks as well, and whichever answers first
 * wins: a quick pick for read-only tools and file changes (the diff stays usable), a modal for
 * commands and other extensions' tools (it shows the full text). Stop settles it as a denial.
 */
export class Approvals implements vscode.Disposable {
  private readonly pending = new Map<string, (d: ToolDecision) => void>();
  private readonly sub: vscode.Disposable;

  /** `dialogs` is VS Code's window; host tests pass one that answers the modal. */
  constructor(
    private readonly source: DecisionSource | undefined,
    private readonly dialogs: Pick<typeof vscode.window, 'showWarningMessage'> = vscode.window,
  ) {
    this.sub = source?.onToolDecision((e) => this.pending.get(e.callId)?.(e.decision)) ?? { dispose: () => undefined };
  }

  approve(req: ApprovalRequest): Promise<ToolDecision> {
    return new Promise<ToolDecision>((resolve) => {
      const cleanups: (() => void)[] = [];
      const settle = (d: ToolDecision) => {
        if (!this.pending.has(req.callId)) return;
        this.pending.delete(req.callId);
        for (const c of cleanups) c();
        resolve(d);
      };
      this.pending.set(req.callId, settle);
      const onAbort = () => settle('deny');
      req.signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => req.signal.removeEventListener('abort', onAbort));
      if (req.untrustedWorkspace && req.preview === 'command') cleanups.push(this.untrustedCommand(req, settle));
      else {
        // Decided once the diff is open: it may have hidden the chat, whose card then cannot be seen.
        void Promise.resolve(req.shown).then((previewFailed) => {
          if (!this.pending.has(req.callId)) return;
          // A diff that failed to open is said first (it replaces "review it in the diff editor").
          const asked = previewFailed
            ? { ...req, warning: [req.warning, previewFailed].filter(Boolean).join('\n') }
            : req;
          if (!this.source || this.source.chatVisible?.() !== true) cleanups.push(this.fallback(asked, settle));
        });
      }
    });
  }

  /**
   * A command in Restricted Mode: always a modal, even with the chat on screen, since a harmless
   * command line (`git status`, `npm test`) runs what the untrusted folder configured.
   */
  private untrustedCommand(req: ApprovalRequest, settle: (d: ToolDecision) => void): () => void {
    const allow = vscode.l10n.t('Allow');
    const detail = [
      vscode.l10n.t(
        "This folder is not trusted. Its own configuration can run code when a command runs: .git/config (core.fsmonitor, hooks), npm scripts, Makefiles. Allow only if you trust this folder's content.",
      ),
      // Shown as the card shows it: blank runs and invisible characters made visible.
      approvalDetail(req, (w) => vscode.l10n.t(w)),
    ].join('\n\n');
    void this.dialogs
      .showWarningMessage(
        vscode.l10n.t('Gateway Studio: run a command in an untrusted workspace?'),
        { modal: true, detail },
        allow,
      )
      .then((pick) => settle(pick === allow ? 'allow' : 'deny'));
    return () => undefined;
  }

  /** Shows the fallback question; returns how to withdraw it. */
  private fallback(req: ApprovalRequest, settle: (d: ToolDecision) => void): () => void {
    const allow = vscode.l10n.t('Allow');
    const deny = vscode.l10n.t('Deny');
    const always = vscode.l10n.t('Always allow {0} in this workspace', req.name);
    const title = req.readOnly
      ? vscode.l10n.t('Gateway Studio: the model wants to use {0}', req.name)
      : vscode.l10n.t('Gateway Studio: the model wants to run {0}, which can change your workspace', req.name);
    const detail = [req.warning, approvalDetail(req, (w) => vscode.l10n.t(w))].filter(Boolean).join('\n\n');

    // A modal blocks the window, which is right only where the full text matters more than the
    // editor: a command line, or a tool of another extension. Everything else gets a quick pick
    // that leaves the diff (or the file) usable while the user decides.
    if (req.readOnly || req.preview === 'diff') {
      const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { d: ToolDecision }>();
      qp.title = title;
      qp.placeholder = req.warning
        ? firstLines(req.warning, 3)
        : req.readOnly
          ? firstLines(req.argumentsJson, 6)
          : vscode.l10n.t('Review the proposed change in the diff editor, then choose.');
      qp.ignoreFocusOut = true;
      qp.items = [
        { label: `$(check) ${allow}`, d: 'allow', detail: firstLines(req.summary ?? req.argumentsJson, 3) },
        ...(req.readOnly && !req.askEveryTime ? [{ label: `$(check-all) ${always}`, d: 'alwaysAllow' as const }] : []),
        { label: `$(close) ${deny}`, d: 'deny' },
      ];
      let chosen = false;
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0];
        if (!item) return;
        chosen = true;
        settle(item.d);
        qp.hide();
      });
      // Escape counts as a denial: nothing runs without an explicit Allow.
      qp.onDidHide(() => {
        if (!chosen) settle('deny');
        qp.dispose();
      });
      qp.show();
      return () => {
        chosen = true;
        qp.hide();
      };
    }

    const buttons = [allow, deny];
    void this.dialogs.showWarningMessage(title, { modal: true, detail }, ...buttons).then((pick) => {
      settle(pick === allow ? 'allow' : pick === always ? 'alwaysAllow' : 'deny');
    });
    // A modal cannot be closed from code; its late answer is ignored once the card answered.
    return () => undefined;
  }

  dispose(): void {
    for (const settle of [...this.pending.values()]) settle('deny');
    this.sub.dispose();
  }
}
