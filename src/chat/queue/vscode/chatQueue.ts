import * as vscode from 'vscode';
import { queuedMessagesKey } from '../../../contracts/persistedState/chat';
import { persistedState, type StateStores } from '../../../platform/persistedState';
import { newId, type HostMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';
import type { Question, SessionQueue } from '../../session/core/sessionDeps';
import { joinQueued, MessageQueue, QueueRefusal, type QueuedMessage } from '../core/queue';

/** The part of the chat session the queue drives. */
export interface QueueSession {
  readonly conversationId: string;
  readonly busyRequestId: string | undefined;
  send(requestId: string, q: Question): Promise<void>;
  cancel(requestId: string): void;
}

type QueueRoutes = Routes<'queue/add' | 'queue/edit' | 'queue/remove' | 'queue/sendNow'>;

/**
 * The queue of messages written while an answer runs, in the chat: the page's requests, the
 * session's turn boundaries, the list every chat page shows, and the workspace's stored copy
 * (a queued message survives a reload and a restart, as nothing the user wrote may be lost).
 */
export class ChatQueue {
  private readonly queue: MessageQueue;

  constructor(
    private readonly stores: StateStores,
    private readonly session: () => QueueSession,
    private readonly broadcast: (m: HostMessage) => void,
  ) {
    this.queue = new MessageQueue({ onChange: (c, items) => this.changed(c, items) });
    const stored = persistedState(stores).get(queuedMessagesKey);
    for (const c of new Set(stored.map((i) => i.conversationId)))
      this.queue.restore(
        c,
        stored.filter((i) => i.conversationId === c).map(({ id, text, createdAt }) => ({ id, text, createdAt })),
      );
  }

  readonly routes: QueueRoutes = {
    'queue/add': (m) => this.add(m.conversationId, m.text, m.now === true),
    'queue/edit': (m) => {
      // Sent meanwhile: the new text is queued (or sent), never dropped.
      if (this.refusing(() => this.queue.edit(m.conversationId, m.id, m.text)) === false)
        this.add(m.conversationId, m.text, false);
    },
    'queue/remove': (m) => this.queue.remove(m.conversationId, m.id),
    'queue/sendNow': (m) => this.sendNow(m.conversationId),
  };

  /** What the session calls at a turn's edges. */
  readonly turns: SessionQueue = {
    started: (c) => this.queue.turnStarted(c),
    afterRound: (c) => {
      const taken = this.queue.takeAfterRound(c);
      return taken.length ? joinQueued(taken) : undefined;
    },
    putBack: (c, text) => this.queue.putBack(c, text),
    ended: (c, end, shown) => this.sendTaken(c, this.queue.turnEnded(c, end, shown && this.canSend(c))),
  };

  /** Every conversation's queue, for a page that (re)loads (it shows the one of the conversation shown). */
  messages(): HostMessage[] {
    return this.queue.conversations().map((c) => this.listMessage(c, this.queue.items(c)));
  }

  private add(conversationId: string, text: string, now: boolean): void {
    const busy = this.isBusy(conversationId);
    // Nothing runs in that conversation: queueing would only delay it, so it goes as it is.
    if (!busy && !now && this.canSend(conversationId) && !this.queue.items(conversationId).length) {
      void this.send(conversationId, text);
      return;
    }
    if (this.refusing(() => this.queue.add(conversationId, text)) === undefined) {
      // Refused (too many, too long): the text goes back to the composer.
      this.broadcast({ ...this.listMessage(conversationId, this.queue.items(conversationId)), returned: text });
      return;
    }
    if (now) this.sendNow(conversationId);
  }

  private sendNow(conversationId: string): void {
    const busy = this.isBusy(conversationId);
    const taken = this.queue.sendNow(conversationId, busy);
    if (busy) {
      const running = this.session().busyRequestId;
      if (running) this.session().cancel(running);
      return;
    }
    this.sendTaken(conversationId, taken);
  }

  private sendTaken(conversationId: string, taken: readonly QueuedMessage[]): void {
    if (taken.length) void this.send(conversationId, joinQueued(taken));
  }

  private send(conversationId: string, text: string): Promise<void> {
    // Shown and idle was checked by the caller; the session refuses a second request anyway.
    if (!this.canSend(conversationId)) {
      this.queue.putBack(conversationId, text);
      return Promise.resolve();
    }
    return this.session().send(newId('r'), { text, images: [], contexts: [] });
  }

  /** Runs `act`; a refusal is said under the composer and gives undefined. */
  private refusing<T>(act: () => T): T | undefined {
    try {
      return act();
    } catch (e) {
      if (!(e instanceof QueueRefusal)) throw e;
      this.broadcast({
        type: 'chat/notice',
        level: 'warning',
        text: vscode.l10n.t('The message was not queued: {0}', e.message),
      });
      return undefined;
    }
  }

  /** A turn of `conversationId` runs now (only the shown conversation's can). */
  private isBusy(conversationId: string): boolean {
    const s = this.session();
    return s.busyRequestId !== undefined && s.conversationId === conversationId;
  }

  /** Whether a message of `conversationId` can start a turn now: it is shown and nothing runs. */
  private canSend(conversationId: string): boolean {
    const s = this.session();
    return s.conversationId === conversationId && s.busyRequestId === undefined;
  }

  private listMessage(
    conversationId: string,
    items: readonly QueuedMessage[],
  ): Extract<HostMessage, { type: 'queue/list' }> {
    return { type: 'queue/list', conversationId, items: [...items] };
  }

  private changed(conversationId: string, items: readonly QueuedMessage[]): void {
    this.broadcast(this.listMessage(conversationId, items));
    const all = this.queue
      .conversations()
      .flatMap((c) => this.queue.items(c).map((i) => ({ conversationId: c, ...i })));
    void persistedState(this.stores).set(queuedMessagesKey, all);
  }
}
