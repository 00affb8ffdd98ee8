/**
 * The chat's queue of messages written while an answer runs, as `src/chat/queue/vscode/chatQueue.ts`
 * wires it, over the same core state machine (`MessageQueue`) and the same turn edges the session
 * calls; without VS Code's parts (the stored copy, the l10n of refusals), which plain node lacks.
 * A message queued while the turn runs follows the running tool round's results; one queued
 * during the turn's last answer is sent as the next turn when it ends.
 */
import { joinQueued, MessageQueue, type QueuedMessage } from '../../src/chat/queue/core/queue';
import type { ChatSession } from '../../src/chat/session/core/session';
import type { SessionQueue } from '../../src/chat/session/core/sessionDeps';
import { newId, type HostMessage } from '../../src/shared/protocol';

export class SoakQueue {
  private readonly queue: MessageQueue;
  /** The turn the queue started at a turn's end, while it runs. */
  private followUp: Promise<void> | undefined;
  /** Queued messages sent: after a tool round, or as a turn of their own. */
  sentAfterRound = 0;
  sentAsTurn = 0;

  constructor(
    private readonly session: () => ChatSession,
    broadcast: (m: HostMessage) => void,
  ) {
    this.queue = new MessageQueue({
      onChange: (conversationId, items) => broadcast({ type: 'queue/list', conversationId, items: [...items] }),
    });
  }

  /** What the session calls at a turn's edges (as ChatQueue.turns). */
  readonly turns: SessionQueue = {
    started: (c) => this.queue.turnStarted(c),
    afterRound: (c) => {
      const taken = this.queue.takeAfterRound(c);
      if (!taken.length) return undefined;
      this.sentAfterRound += taken.length;
      return joinQueued(taken);
    },
    putBack: (c, text) => this.queue.putBack(c, text),
    ended: (c, end, shown) => this.sendTaken(this.queue.turnEnded(c, end, shown && this.canSend(c))),
  };

  /** The composer's message while a turn runs (ChatQueue's `queue/add` without "send now"). */
  add(conversationId: string, text: string): void {
    if (!this.isBusy(conversationId)) throw new Error('the soak queues only while a turn runs');
    this.queue.add(conversationId, text);
  }

  /** Resolves once no turn the queue started is running. */
  async settled(): Promise<void> {
    while (this.followUp) {
      const p = this.followUp;
      await p;
      if (this.followUp === p) this.followUp = undefined;
    }
  }

  private sendTaken(taken: readonly QueuedMessage[]): void {
    if (!taken.length) return;
    this.sentAsTurn += taken.length;
    this.followUp = this.session().send(newId('r'), { text: joinQueued(taken), images: [], contexts: [] });
  }

  private isBusy(conversationId: string): boolean {
    const s = this.session();
    return s.busyRequestId !== undefined && s.conversationId === conversationId;
  }

  private canSend(conversationId: string): boolean {
    const s = this.session();
    return s.conversationId === conversationId && s.busyRequestId === undefined;
  }
}
