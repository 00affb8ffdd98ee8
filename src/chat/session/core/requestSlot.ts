import * as l10n from '@vscode/l10n';
import type { SessionSink } from '../../conversation/core/routes';

/**
 * The one request the session runs at a time (a turn, or a compaction): who holds it, how it is
 * stopped, and the refusal of another one while it runs.
 */
export class RequestSlot {
  private active: { requestId: string; abort: AbortController } | undefined;

  constructor(private readonly sink: SessionSink) {}

  /** The request running now, if any. */
  get busyRequestId(): string | undefined {
    return this.active?.requestId;
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  /** `requestId` holds the slot from now on, and the views are told; the signal aborts when it is stopped. */
  begin(requestId: string): AbortSignal {
    const abort = new AbortController();
    this.active = { requestId, abort };
    this.sink.broadcast({ type: 'chat/busy', requestId });
    return abort.signal;
  }

  /** Frees the slot, if `requestId` still holds it. */
  end(requestId: string): void {
    if (this.active?.requestId === requestId) this.active = undefined;
  }

  /** The user stopped `requestId` (Escape, the Stop button); another request is left alone. */
  cancel(requestId: string): void {
    if (this.active?.requestId === requestId) this.active.abort.abort();
  }

  /** Stops whatever runs (another conversation is shown, the window closes). */
  stop(): void {
    this.active?.abort.abort();
  }

  /**
   * True while another request runs: `requestId` is then ended in the views (the webview marked
   * itself busy with it, so its Send button comes back), with why, and the running one marked busy again.
   */
  refuse(requestId: string): boolean {
    if (!this.active) return false;
    this.sink.broadcast({ type: 'chat/done', requestId });
    this.warnBusy();
    this.sink.broadcast({ type: 'chat/busy', requestId: this.active.requestId });
    return true;
  }

  /** Says that an answer is still streaming. */
  warnBusy(): void {
    this.sink.broadcast({
      type: 'chat/notice',
      level: 'warning',
      text: l10n.t('An answer is still streaming. Stop it first (Escape).'),
    });
  }
}
