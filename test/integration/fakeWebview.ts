import * as vscode from 'vscode';
import type { HostMessage } from '../../src/shared/protocol';

/** A webview without a page: records what the host posts and lets the test post as the page. */
export class FakeWebview {
  readonly posted: HostMessage[] = [];
  private readonly emitter = new vscode.EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.emitter.event;
  postMessage(m: unknown): Thenable<boolean> {
    this.posted.push(m as HostMessage);
    return Promise.resolve(true);
  }
  fromPage(m: unknown): void {
    this.emitter.fire(m);
  }
  /** Content of the deltas of one request, joined. */
  streamed(requestId: string): string {
    return this.posted
      .map((m) => (m.type === 'chat/delta' && m.requestId === requestId ? (m.content ?? '') : ''))
      .join('');
  }
  end(requestId: string): Extract<HostMessage, { type: 'chat/done' | 'chat/error' }> | undefined {
    return this.posted.find(
      (m): m is Extract<HostMessage, { type: 'chat/done' | 'chat/error' }> =>
        (m.type === 'chat/done' || m.type === 'chat/error') && m.requestId === requestId,
    );
  }
}
