import * as vscode from 'vscode';
import { getGatewayClient } from '../../../platform/gateway';
import { rememberSecret } from '../../../shared/redact';
import type { Services } from '../../../platform/services';
import { persistedState } from '../../../platform/persistedState';
import { completionsSnoozedUntilKey } from '../../../contracts/persistedState/completion';
import { readSettings, updateSetting } from '../../../platform/settings';
import { settingLayers } from '../../../platform/userSettings';
import { completeAt } from '../core/completer';
import { assembleContext, type CompletionContext } from '../core/context';
import { CompletionScheduler, type Outcome } from '../core/scheduler';
import {
  askWay,
  completionModel,
  completionSettingsFromLayers,
  languageEnabled,
  offByWorkspace,
  userText,
  type CompletionSettings,
} from '../core/settings';
import { Eligibility, type Refusal } from './eligibility';
import { Neighbours } from './neighbours';
import { CompletionStatusBar } from './statusBar';

interface Question {
  ctx: CompletionContext;
  model: string;
  way: 'fim' | 'chat';
}

type Skip = Refusal | 'off' | 'snoozed' | 'language' | 'suggest-widget' | 'selection' | 'multi-cursor' | 'no-model';
/** Why the last ask got no request, or what it got (for the tests, through the state command). */
export type LastAsk = { skipped: Skip } | Outcome;

/**
 * Inline completion in the editor: the provider VS Code asks on every keystroke, which checks
 * that the document may be completed, then leaves the when and whether to the scheduler; the
 * status-bar item; the snooze. Accepting a word at a time is VS Code's own command
 * (`editor.action.inlineSuggest.acceptNextWord`) on the items returned here.
 */
export class InlineCompletion implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  private readonly eligibility = new Eligibility();
  private readonly neighbours = new Neighbours(this.eligibility);
  private readonly bar = new CompletionStatusBar();
  private snoozeTimer: ReturnType<typeof setTimeout> | undefined;
  last: LastAsk | undefined;
  /** Asks so far, and the one whose outcome `last` is. */
  private asks = 0;
  private shown = 0;
  readonly scheduler: CompletionScheduler<Question>;

  constructor(private readonly s: Services) {
    this.scheduler = new CompletionScheduler<Question>({
      fetch: async (q, signal) => completeAt(await getGatewayClient(s), q.ctx, { model: q.model, way: q.way, signal }),
      debounceMs: () => this.settings().debounceMs,
      onError: () => this.refresh(),
      onFailure: (e) => s.log.debug(`Completion failed: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.subs.push(
      vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, this),
      this.eligibility,
      this.neighbours,
      this.bar,
      s.keys.onDidChange(() => this.scheduler.reset()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('gatewayStudio')) return;
        // A new key, address or model may work where the old one failed.
        if (
          ['baseUrl', 'chatModel', 'completions.model', 'models.overrides'].some((k) =>
            e.affectsConfiguration(`gatewayStudio.${k}`),
          )
        )
          this.scheduler.reset();
        this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidCloseTextDocument((d) => this.scheduler.cache.forget(d.uri.toString())),
    );
    this.refresh();
  }

  /** The settings for `scope` (default: the active editor's file), a workspace narrowing only. */
  settings(scope?: vscode.Uri): CompletionSettings {
    const uri = scope ?? vscode.window.activeTextEditor?.document.uri;
    return completionSettingsFromLayers((k) => settingLayers(k, uri));
  }

  private get snoozedUntil(): number {
    return persistedState(this.s.context).get(completionsSnoozedUntilKey);
  }

  /** The model in use now (empty when none is set). */
  model(): string {
    // The user's own chat model: a workspace's would be paid on every pause in typing.
    const chat = userText(settingLayers('chatModel'));
    return completionModel(this.settings(), chat);
  }

  refresh(): void {
    const s = this.settings();
    const lang = vscode.window.activeTextEditor?.document.languageId;
    this.bar.show({
      enabled: s.enabled,
      model: this.model(),
      snoozedUntil: this.snoozedUntil,
      ...(this.scheduler.errorState ? { error: this.scheduler.errorState } : {}),
      languageOff: lang !== undefined && !languageEnabled(s, lang),
    });
  }

  get statusText(): string {
    return this.bar.text;
  }

  async toggle(): Promise<void> {
    const on = this.settings().enabled;
    await updateSetting('completions.enabled', !on);
    if (!on) await this.snooze(0);
    this.refresh();
    const layers = settingLayers('completions.enabled', vscode.window.activeTextEditor?.document.uri);
    if (!on && offByWorkspace(layers))
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          "This workspace's settings turn inline completion off (gatewayStudio.completions.enabled); it stays off here.",
        ),
      );
  }

  /** Snoozes for `minutes` (asked when not given; 0 ends a snooze). */
  async snooze(minutes?: number): Promise<void> {
    if (minutes === undefined) {
      const picks = [5, 15, 60].map((m) => ({ label: vscode.l10n.t('{0} minutes', m), minutes: m }));
      const picked = await vscode.window.showQuickPick(picks, {
        placeHolder: vscode.l10n.t('Snooze inline completion for'),
      });
      if (!picked) return;
      minutes = picked.minutes;
    }
    const until = minutes > 0 ? Date.now() + minutes * 60_000 : 0;
    await persistedState(this.s.context).set(completionsSnoozedUntilKey, until);
    if (this.snoozeTimer) clearTimeout(this.snoozeTimer);
    if (until > 0) this.snoozeTimer = setTimeout(() => this.refresh(), until - Date.now() + 100);
    this.scheduler.abortPending();
    this.refresh();
  }

  async provideInlineCompletionItems(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    // An older ask that ends later (superseded by this one) must not write over a newer one's outcome.
    const ask = ++this.asks;
    const tell = (outcome: LastAsk) => {
      if (ask < this.shown) return;
      this.shown = ask;
      this.last = outcome;
    };
    const skip = await this.refusal(doc, context);
    if (skip) {
      tell({ skipped: skip });
      return undefined;
    }
    const settings = this.settings(doc.uri);
    const model = this.model();
    const way = askWay(model, readSettings().modelOverrides);
    const text = doc.getText();
    const offset = doc.offsetAt(pos);
    const ctrl = new AbortController();
    const cancel = token.onCancellationRequested(() => ctrl.abort());
    try {
      const outcome = await this.scheduler.suggest({
        doc: doc.uri.toString(),
        prefix: text.slice(0, offset),
        suffix: text.slice(offset),
        cancelled: ctrl.signal,
        context: async () => {
          // The context masks remembered secrets: remember the key before the first request.
          rememberSecret(await this.s.keys.get());
          return {
            ctx: assembleContext(
              { text, offset, path: vscode.workspace.asRelativePath(doc.uri, false), languageId: doc.languageId },
              await this.neighbours.of(doc, settings.maxFileKilobytes * 1024),
            ),
            model,
            way,
          };
        },
      });
      tell(outcome);
      if (!('text' in outcome) || token.isCancellationRequested) return undefined;
      return [new vscode.InlineCompletionItem(outcome.text, new vscode.Range(pos, pos))];
    } finally {
      cancel.dispose();
    }
  }

  private async refusal(doc: vscode.TextDocument, context: vscode.InlineCompletionContext): Promise<Skip | undefined> {
    const s = this.settings(doc.uri);
    if (!s.enabled) return 'off';
    if (this.snoozedUntil > Date.now()) return 'snoozed';
    if (!languageEnabled(s, doc.languageId)) return 'language';
    // The suggest widget is open: VS Code shows its item as ghost text; ours would fight it.
    if (context.selectedCompletionInfo) return 'suggest-widget';
    // A snippet session: VS Code tells extensions nothing of it, and (1.139) only hides inline
    // ghost text in it (editor.inlineSuggest.suppressInSnippetMode) after asking the providers.
    // What shows of it here: a placeholder with a default is selected (typing replaces it), and a
    // placeholder used twice gives several cursors. Either way, no request.
    const editor = vscode.window.activeTextEditor;
    if (editor?.document === doc && editor.selections.length > 1) return 'multi-cursor';
    if (editor?.document === doc && editor.selections.some((sel) => !sel.isEmpty)) return 'selection';
    if (this.model() === '') return 'no-model';
    return this.eligibility.check(doc, s.maxFileKilobytes * 1024);
  }

  dispose(): void {
    if (this.snoozeTimer) clearTimeout(this.snoozeTimer);
    this.scheduler.abortPending();
    for (const d of this.subs) d.dispose();
  }
}
