import * as l10n from '@vscode/l10n';
import type { Conversation, HostMessage } from '../../../shared/protocol';
import { redact } from '../../../shared/redact';
import type { ConversationStore } from '../../history/core/store';
import type { SessionLog } from './sessionDeps';

/**
 * Saves conversations one after the other; an empty one is not stored, and the one saved last
 * becomes the one shown after a restart. Saves asked for while one is being written are merged:
 * each conversation waiting is saved once, as it is when its turn comes (the store takes what it
 * writes then), so a long conversation is not rewritten for every message of a busy agent step. A
 * failure is logged each time and shown to the user once per run of failures: an answer is saved
 * every ~2 s while it streams, and a notice per save would bury the chat.
 */
export class ConversationSaver {
  private saving: Promise<void> = Promise.resolve();
  /** The saves not started yet (the latest asked for last), and the promise that runs them. */
  private readonly waiting = new Map<string, { c: Conversation; dirtyFrom: number }>();
  private next: Promise<void> | undefined;
  /** The last save failed and the user has been told. */
  private failing = false;

  /** @param notify shows a notice in the chat views. */
  constructor(
    private readonly store: ConversationStore,
    private readonly log: SessionLog,
    private readonly notify: (msg: HostMessage) => void,
  ) {}

  /**
   * Saves `c` after any save already under way, at the latest as it is then; never rejects.
   * `dirtyFrom`: the caller changed no message before it since its previous save (see
   * {@link ConversationStore.save}); merged saves keep the lowest.
   */
  save(c: Conversation, dirtyFrom = 0): Promise<void> {
    const before = this.waiting.get(c.id);
    this.waiting.delete(c.id);
    this.waiting.set(c.id, { c, dirtyFrom: Math.min(dirtyFrom, before?.dirtyFrom ?? dirtyFrom) });
    this.next ??= this.saving = this.saving.then(async () => {
      this.next = undefined;
      const batch = [...this.waiting.values()];
      this.waiting.clear();
      for (const w of batch) await this.saveOne(w.c, w.dirtyFrom);
    });
    return this.next;
  }

  private async saveOne(c: Conversation, dirtyFrom: number): Promise<void> {
    try {
      if (c.messages.length === 0) return;
      await this.store.save(c, { dirtyFrom });
      if (this.store.activeId !== c.id) await this.store.setActive(c.id);
      this.failing = false;
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    const why = redact(err instanceof Error ? err.message : String(err));
    this.log.error(`chat history not saved: ${why}`);
    if (this.failing) return;
    this.failing = true;
    this.notify({
      type: 'chat/notice',
      level: 'error',
      text: l10n.t(
        'The chat history could not be saved ({0}). This conversation may be lost when the window closes.',
        why,
      ),
    });
  }
}
