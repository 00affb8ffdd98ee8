/**
 * Messages queued while an answer runs (`queue/*`), as the composer shows them: each
 * conversation's list as the host last sent it (the host keeps the queue; the page asks), the one
 * shown, and what Enter and Ctrl/Cmd+Enter do while an answer runs. Loaded with the queue list's
 * chunk (components/QueueList.tsx), never at first paint.
 */
import { computed, signal, type Signal } from '@preact/signals';
import type { QueuedMessageView } from '../../../src/shared/protocol';
import { afterRender, announce, els, post } from '../runtime';
import type { ConversationModel } from './conversation';
import type { HostMessageIn } from './routes';
import type { Translate } from './strings';

export interface QueueDeps {
  conversation: Pick<ConversationModel, 'id' | 'busyRequestId'>;
  composer: { draft: Signal<string> };
  t: Translate;
}

export function createQueueModel({ conversation, composer, t }: QueueDeps) {
  /** Every conversation's queue the host told of, by conversation id. */
  const lists = signal<Readonly<Record<string, readonly QueuedMessageView[]>>>({});
  const items = computed(() => lists.value[conversation.id.value ?? ''] ?? []);
  /** The queued message whose text is being edited, if any. */
  const editing = signal<string | undefined>(undefined);

  function onHost(msg: HostMessageIn<'queue'>): void {
    lists.value = { ...lists.value, [msg.conversationId]: msg.items };
    if (editing.value !== undefined && !msg.items.some((i) => i.id === editing.value)) editing.value = undefined;
    // Text the host could not queue comes back into an empty message box: nothing written is lost.
    if (msg.returned !== undefined && msg.conversationId === conversation.id.value && !composer.draft.value.trim())
      composer.draft.value = msg.returned;
  }

  /**
   * Enter while an answer runs: the box's text is queued (`now`: Ctrl/Cmd+Enter, the answer stops
   * and the queue is sent). An empty box with `now` sends what is queued already.
   */
  function add(now: boolean): void {
    const conversationId = conversation.id.value;
    if (conversationId === undefined) return;
    const text = els.textarea?.value ?? composer.draft.value;
    if (!text.trim()) {
      if (now && items.value.length) sendNow();
      return;
    }
    post({ type: 'queue/add', conversationId, text, ...(now ? { now: true } : {}) });
    composer.draft.value = '';
    afterRender(() =>
      announce(now ? t('Stopping the answer to send your message.') : t('Queued: sent when the current step ends.')),
    );
  }

  function sendNow(): void {
    const conversationId = conversation.id.value;
    if (conversationId !== undefined) post({ type: 'queue/sendNow', conversationId });
  }

  function save(id: string, text: string): void {
    const conversationId = conversation.id.value;
    editing.value = undefined;
    if (conversationId === undefined) return;
    if (text.trim()) post({ type: 'queue/edit', conversationId, id, text });
    else post({ type: 'queue/remove', conversationId, id });
  }

  function remove(id: string): void {
    const conversationId = conversation.id.value;
    if (conversationId !== undefined) post({ type: 'queue/remove', conversationId, id });
  }

  return {
    items,
    editing,
    busy: computed(() => conversation.busyRequestId.value !== undefined),
    onHost,
    add,
    sendNow,
    save,
    remove,
  };
}

export type QueueModel = ReturnType<typeof createQueueModel>;
