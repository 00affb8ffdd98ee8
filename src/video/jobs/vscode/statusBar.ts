import * as vscode from 'vscode';
import { statusBarModel, type StatusBarModel } from '../core/summary';
import type { VideoTaskRecord } from '../core/record';

/**
 * The video status-bar item (`gatewayStudio.videoStatus`). Its text comes from
 * {@link statusBarModel}; while a task runs the elapsed time in the tooltip is refreshed every
 * second. Call {@link refresh} once the records can be read.
 */
export class VideoStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private timer: ReturnType<typeof setInterval> | undefined;
  private last: StatusBarModel = { visible: false, text: '', tooltip: '', mood: 'idle' };

  /** `command`: what a click runs (the feature's task list). */
  constructor(
    private readonly records: () => readonly VideoTaskRecord[],
    command: string,
  ) {
    this.item = vscode.window.createStatusBarItem('gatewayStudio.videoStatus', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Gateway Studio Video');
    this.item.command = command;
  }

  /** What the item shows now (for the debug-state command). */
  get model(): StatusBarModel {
    return this.last;
  }

  refresh(): void {
    const m = statusBarModel(this.records(), Date.now());
    this.last = m;
    if (!m.visible) {
      this.item.hide();
    } else {
      this.item.text = m.text;
      const md = new vscode.MarkdownString();
      // appendText escapes markdown in prompts; hard breaks keep one fact per line.
      for (const line of m.tooltip.split('\n')) {
        if (line === '') md.appendMarkdown('\n\n');
        else {
          md.appendText(line);
          md.appendMarkdown('  \n');
        }
      }
      md.appendMarkdown('\n---\n\n');
      md.appendText(vscode.l10n.t('Click for the list of video tasks.'));
      this.item.tooltip = md;
      this.item.backgroundColor =
        m.mood === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
      this.item.accessibilityInformation = { label: m.text.replace(/\$\([^)]*\)\s*/g, '') };
      this.item.show();
    }
    if (m.mood === 'spinning' && !this.timer) {
      this.timer = setInterval(() => this.refresh(), 1000);
    } else if (m.mood !== 'spinning' && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.item.dispose();
  }
}
