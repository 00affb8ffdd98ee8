import type { HostMessage } from '../../../shared/protocol';
import type { SessionSink } from '../../conversation/core/routes';
import { DeltaBatcher, type DeltaClock, realClock } from './deltaBatcher';

/** The part of a `vscode.Webview` the hub posts to. */
export interface PostTarget {
  postMessage(message: unknown): Thenable<boolean>;
}

/** One open chat webview: the sidebar view or the editor panel. */
export interface Surface {
  readonly webview: PostTarget;
  readonly visible: () => boolean;
  ready: boolean;
  queue: HostMessage[];
}

/** Messages whose content the snapshot already carries, so queued copies are dropped on ready. */
const SUPERSEDED_BY_SNAPSHOT = new Set<HostMessage['type']>([
  'chat/snapshot',
  'chat/conversation',
  'chat/message',
  'chat/delta',
  'chat/done',
  'chat/error',
  'chat/busy',
  'history/list',
  'models/list',
  'tools/list',
  'tools/call',
  'tools/mediaJob',
]);

type Messages = Extract<HostMessage, { type: 'chat/conversation' }>['conversation']['messages'];

const replayed = (m: Messages[number]): boolean => m.role === 'assistant' && m.encryptedReasoning !== undefined;
function hostOnly<M extends Messages[number]>(m: M): M {
  if (m.role !== 'assistant' || !m.encryptedReasoning) return m;
  const { encryptedReasoning: _kept, ...shown } = m;
  return shown as M;
}

/** What a page gets: the encrypted reasoning kept for replay stays on the host (opaque, large, never shown). */
function forPage(msg: HostMessage): HostMessage {
  switch (msg.type) {
    case 'chat/snapshot':
    case 'chat/conversation':
      return msg.conversation.messages.some(replayed)
        ? { ...msg, conversation: { ...msg.conversation, messages: msg.conversation.messages.map(hostOnly) } }
        : msg;
    case 'chat/message':
      return replayed(msg.message) ? { ...msg, message: hostOnly(msg.message) } : msg;
    case 'chat/done':
    case 'chat/error':
      return msg.message && replayed(msg.message) ? { ...msg, message: hostOnly(msg.message) } : msg;
    default:
      return msg;
  }
}

/**
 * Every open chat webview (the sidebar view and the editor panel show the same conversation):
 * what is posted to a webview waits until it says `webview/ready`, and streamed text is batched.
 * Needs nothing of VS Code but a webview's `postMessage`.
 */
export class ChatHub implements SessionSink {
  private readonly surfaces = new Set<Surface>();
  private readonly deltas: DeltaBatcher;
  /** Selections added while no chat view existed yet; handed to the first one that is ready. */
  private orphans: HostMessage[] = [];

  constructor(clock: DeltaClock = realClock) {
    this.deltas = new DeltaBatcher((batch) => {
      const sent: PromiseLike<unknown>[] = [];
      for (const [messageId, d] of batch) {
        const msg: HostMessage = { type: 'chat/delta', requestId: d.requestId, messageId };
        if (d.content) msg.content = d.content;
        if (d.reasoning) msg.reasoning = d.reasoning;
        for (const s of this.surfaces) {
          const p = this.send(s, msg);
          if (p) sent.push(p);
        }
      }
      return Promise.all(sent);
    }, clock);
  }

  /** A new webview; what is sent to it waits in its queue until {@link ready}. */
  add(webview: PostTarget, visible: () => boolean): Surface {
    const surface: Surface = { webview, visible, ready: false, queue: [] };
    this.surfaces.add(surface);
    return surface;
  }

  remove(surface: Surface): void {
    this.surfaces.delete(surface);
  }

  get size(): number {
    return this.surfaces.size;
  }

  /** Whether a chat (view or panel) is on screen now, so a card there can be seen. */
  isVisible(): boolean {
    return [...this.surfaces].some((s) => s.visible());
  }

  /** Posts, or queues until the page is ready; what it returns settles once it was delivered. */
  send(surface: Surface, message: HostMessage): PromiseLike<unknown> | undefined {
    const msg = forPage(message);
    if (!surface.ready) {
      surface.queue.push(msg);
      return undefined;
    }
    return surface.webview.postMessage(msg).then(undefined, () => undefined);
  }

  broadcast(msg: HostMessage): void {
    if (msg.type !== 'chat/delta') this.deltas.flush();
    for (const s of this.surfaces) this.send(s, msg);
  }

  /** Like {@link broadcast}, but kept for the first view that is ready when none exists yet. */
  broadcastOrKeep(msg: HostMessage): void {
    // Revealing the view for the first time may resolve it only after this call.
    if (this.surfaces.size === 0) this.orphans.push(msg);
    else this.broadcast(msg);
  }

  /**
   * Streamed text: the first delta of a burst goes on the next turn of the event loop, then at
   * most one message per ~8 ms (deltaBatcher.ts), so a fast stream is not one IPC per token.
   */
  delta(requestId: string, messageId: string, d: { content?: string; reasoning?: string }): void {
    this.deltas.add(requestId, messageId, d);
  }

  /**
   * The webview is ready: it gets `state` (the snapshot and what else describes the whole state),
   * then what was queued for it and is not already in that state, then any kept selection.
   */
  ready(surface: Surface, state: HostMessage[]): void {
    this.deltas.flush();
    const kept = surface.queue.filter((m) => !SUPERSEDED_BY_SNAPSHOT.has(m.type));
    surface.queue = [];
    surface.ready = true;
    for (const m of state) this.send(surface, m);
    for (const m of kept) this.send(surface, m);
    for (const m of this.orphans) this.send(surface, m);
    this.orphans = [];
  }

  dispose(): void {
    this.deltas.dispose();
  }
}
