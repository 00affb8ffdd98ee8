import type { Conversation } from '../../../shared/protocol';
import type { ConversationStore } from '../../history/core/store';
import type { SessionLog } from './sessionDeps';

/**
 * Saves conversations one after the other, each as it was when its save was asked for; an empty
 * one is not stored, and the one saved becomes the one shown after a restart.
 */
export class ConversationSaver {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ConversationStore,
    private readonly log: SessionLog,
  ) {}

  /** Saves a copy of `c` after any save already under way; never rejects. */
  save(c: Conversation): Promise<void> {
    const snapshot = structuredClone(c);
    this.saving = this.saving
      .then(async () => {
        if (snapshot.messages.length === 0) return;
        await this.store.save(snapshot);
        if (this.store.activeId !== snapshot.id) await this.store.setActive(snapshot.id);
      })
      .catch((err: unknown) =>
        this.log.error(`chat history not saved: ${err instanceof Error ? err.message : String(err)}`),
      );
    return this.saving;
  }
}
