import * as l10n from '@vscode/l10n';
import type { Conversation, HostMessage } from '../../../shared/protocol';
import { redact } from '../../../shared/redact';
import type { ConversationStore } from '../../history/core/store';
import type { SessionLog } from './sessionDeps';

/**
 * Saves conversations one after the other, each as it was when its save was asked for; an empty
 * one is not stored, and the one saved becomes the one shown after a restart. A failure is
 * logged each time and shown to the user once per run of failures: an answer is saved every
 * ~2 s while it streams, and a notice per save would bury the chat.
 */
export class ConversationSaver {
  private saving: Promise<void> = Promise.resolve();
  /** The last save failed and the user has been told. */
  private failing = false;

  /** @param notify shows a notice in the chat views. */
  constructor(
    private readonly store: ConversationStore,
    private readonly log: SessionLog,
    private readonly notify: (msg: HostMessage) => void,
  ) {}

  /** Saves a copy of `c` after any save already under way; never rejects. */
  save(c: Conversation): Promise<void> {
    const snapshot = structuredClone(c);
    this.saving = this.saving
      .then(async () => {
        if (snapshot.messages.length === 0) return;
        await this.store.save(snapshot);
        if (this.store.activeId !== snapshot.id) await this.store.setActive(snapshot.id);
        this.failing = false;
      })
      .catch((err: unknown) => this.failed(err));
    return this.saving;
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
