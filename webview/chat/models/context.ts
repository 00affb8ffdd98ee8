/** The context window (`context/*`): the meter of the next request, and the summary compaction left. */
import { signal } from '@preact/signals';
import type { Compaction, ContextMeter } from '../../../src/shared/protocol';
import type { ConversationModel } from './conversation';
import type { HostMessageIn } from './routes';

export function createContextModel({ conversation }: { conversation: ConversationModel }) {
  /** The context meter of the shown conversation's next request (from the host). */
  const meter = signal<ContextMeter | undefined>(undefined);
  /** The summary that stands in for the shown conversation's earlier messages, if any. */
  const compaction = signal<Compaction | undefined>(undefined);

  function onHost(msg: HostMessageIn<'context'>): void {
    switch (msg.type) {
      case 'context/meter':
        meter.value = msg.meter;
        return;
      case 'context/compacted':
        if (msg.conversationId === conversation.id.value) compaction.value = msg.compaction;
        return;
    }
  }

  return { meter, compaction, onHost };
}
