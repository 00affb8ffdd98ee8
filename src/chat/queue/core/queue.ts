/**
 * Messages the user wrote while an answer ran, per conversation: shown as queued (editable,
 * removable), taken at the next turn boundary (after the running tool round, or when the turn
 * ends), or at once when the user interrupts. Nothing here knows VS Code; the chat's composition
 * point wires it to the session and the page.
 *
 * A conversation's queue moves between three states:
 * - `idle`: no turn runs; what is queued waits for the user (Send now, edit, remove).
 * - `running`: a turn runs; the queue is taken after each tool round and when the turn ends.
 * - `interrupting`: the user asked to send now; the running turn is being stopped, and when it
 *   has ended the whole queue is sent as the next message.
 * A turn that the user stopped (or that failed) leaves the queue where it is: the user decides.
 */

/** One message waiting to be sent. */
export interface QueuedMessage {
  id: string;
  text: string;
  createdAt: number;
}

export type QueueState = 'idle' | 'running' | 'interrupting';

/** How a turn ended, as far as the queue cares. */
export type TurnEnd = 'done' | 'stopped' | 'error' | 'max-rounds';

export const MAX_QUEUED = 20;
export const MAX_QUEUED_CHARS = 100_000;

/** A refusal the page shows under the composer (the text stays in the box). */
export class QueueRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueRefusal';
  }
}

interface Entry {
  state: QueueState;
  items: QueuedMessage[];
}

export interface MessageQueueOptions {
  now?: () => number;
  newId?: () => string;
  /** Every change of a conversation's queue (the page shows it, the store keeps it). */
  onChange?: (conversationId: string, items: readonly QueuedMessage[]) => void;
}

export class MessageQueue {
  private readonly byConversation = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly newId: () => string;
  private seq = 0;

  constructor(private readonly opts: MessageQueueOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? (() => `q${this.now().toString(36)}${(this.seq++).toString(36)}`);
  }

  /** What is queued for `conversationId`, oldest first. */
  items(conversationId: string): readonly QueuedMessage[] {
    return this.byConversation.get(conversationId)?.items ?? [];
  }

  state(conversationId: string): QueueState {
    return this.byConversation.get(conversationId)?.state ?? 'idle';
  }

  /** Conversations with something queued (for a page that loads, and for the store). */
  conversations(): string[] {
    return [...this.byConversation].filter(([, e]) => e.items.length).map(([id]) => id);
  }

  /** Puts back what a store kept (a restart): items with a bad shape are skipped by the caller's check. */
  restore(conversationId: string, items: readonly QueuedMessage[]): void {
    if (!items.length) return;
    this.entry(conversationId).items = items.slice(0, MAX_QUEUED).map((i) => ({ ...i }));
  }

  /** Queues `text`; throws a {@link QueueRefusal} that says why when it cannot. */
  add(conversationId: string, text: string): QueuedMessage {
    checkText(text);
    const e = this.entry(conversationId);
    if (e.items.length >= MAX_QUEUED)
      throw new QueueRefusal(`${MAX_QUEUED} messages are queued already: send or remove one first.`);
    const item = { id: this.newId(), text, createdAt: this.now() };
    e.items = [...e.items, item];
    this.changed(conversationId);
    return item;
  }

  /** Changes a queued message; false when it was sent meanwhile (the caller keeps the text). */
  edit(conversationId: string, id: string, text: string): boolean {
    checkText(text);
    const e = this.byConversation.get(conversationId);
    if (!e?.items.some((i) => i.id === id)) return false;
    e.items = e.items.map((i) => (i.id === id ? { ...i, text } : i));
    this.changed(conversationId);
    return true;
  }

  remove(conversationId: string, id: string): void {
    const e = this.byConversation.get(conversationId);
    if (!e?.items.some((i) => i.id === id)) return;
    e.items = e.items.filter((i) => i.id !== id);
    this.changed(conversationId);
  }

  /** A turn of `conversationId` started. */
  turnStarted(conversationId: string): void {
    const e = this.entry(conversationId);
    if (e.state === 'idle') e.state = 'running';
  }

  /**
   * A tool round of a running turn ended: everything queued, to follow the round's results as
   * the next user message (empty when nothing is, or when an interrupt stops the turn anyway).
   */
  takeAfterRound(conversationId: string): QueuedMessage[] {
    const e = this.byConversation.get(conversationId);
    if (!e || e.state !== 'running') return [];
    return this.takeAll(conversationId, e);
  }

  /**
   * The turn ended: what to send now as the next message. A turn that ended by itself sends the
   * queue; a stopped or failed one keeps it, unless the user stopped it to send (an interrupt).
   */
  turnEnded(conversationId: string, end: TurnEnd, canSend = true): QueuedMessage[] {
    const e = this.byConversation.get(conversationId);
    if (!e) return [];
    const interrupted = e.state === 'interrupting';
    e.state = 'idle';
    if (canSend && (interrupted || end === 'done')) return this.takeAll(conversationId, e);
    this.changed(conversationId);
    return [];
  }

  /** Text taken after a round that could not be sent (a hook blocked it): first in the queue again. */
  putBack(conversationId: string, text: string): void {
    const e = this.entry(conversationId);
    e.items = [{ id: this.newId(), text, createdAt: this.now() }, ...e.items].slice(0, MAX_QUEUED);
    this.changed(conversationId);
  }

  /**
   * The user wants the queue sent now. `busy`: a turn of this conversation runs, and the caller
   * stops it; the queue is then sent when it has ended (returns []). Not busy: returned to send.
   */
  sendNow(conversationId: string, busy: boolean): QueuedMessage[] {
    const e = this.byConversation.get(conversationId);
    if (!e?.items.length) return [];
    if (busy) {
      e.state = 'interrupting';
      return [];
    }
    e.state = 'idle';
    return this.takeAll(conversationId, e);
  }

  private takeAll(conversationId: string, e: Entry): QueuedMessage[] {
    const taken = e.items;
    if (!taken.length) return [];
    e.items = [];
    this.changed(conversationId);
    return taken;
  }

  private entry(conversationId: string): Entry {
    let e = this.byConversation.get(conversationId);
    if (!e) {
      e = { state: 'idle', items: [] };
      this.byConversation.set(conversationId, e);
    }
    return e;
  }

  private changed(conversationId: string): void {
    const e = this.byConversation.get(conversationId);
    const items = e?.items ?? [];
    if (e && !items.length && e.state === 'idle') this.byConversation.delete(conversationId);
    this.opts.onChange?.(conversationId, items);
  }
}

/** Several queued messages sent together read as one message, in the order they were written. */
export function joinQueued(items: readonly QueuedMessage[]): string {
  return items.map((i) => i.text).join('\n\n');
}

function checkText(text: string): void {
  if (text.trim() === '') throw new QueueRefusal('An empty message cannot be queued.');
  if (text.length > MAX_QUEUED_CHARS)
    throw new QueueRefusal(`The message is ${text.length} characters; the limit is ${MAX_QUEUED_CHARS}.`);
}
