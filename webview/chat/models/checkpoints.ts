/** The shown conversation's checkpoints (`checkpoints/*`): which answers can be restored, the open plan. */
import { signal } from '@preact/signals';
import type { CheckpointFileView, CheckpointSummaryView } from '../../../src/shared/protocol';
import type { ConversationModel } from './conversation';
import type { HostMessageIn } from './routes';

export function createCheckpointsModel({ conversation }: { conversation: ConversationModel }) {
  /** The answers that have a checkpoint (their Restore button), by answer id. */
  const summaries = signal<ReadonlyMap<string, CheckpointSummaryView>>(new Map());
  /** The open restore panel: what Restore would do for one answer. */
  const plan = signal<{ answerId: string; files: CheckpointFileView[] } | undefined>(undefined);

  /** Another conversation is shown: these were the last one's. */
  function reset(): void {
    summaries.value = new Map();
    plan.value = undefined;
  }

  function onHost(msg: HostMessageIn<'checkpoints'>): void {
    switch (msg.type) {
      case 'checkpoints/list':
        if (msg.conversationId === conversation.id.value)
          summaries.value = new Map(msg.answers.map((a) => [a.answerId, a]));
        return;
      case 'checkpoints/plan':
        if (msg.files) plan.value = { answerId: msg.answerId, files: msg.files };
        else if (plan.value?.answerId === msg.answerId) plan.value = undefined;
        return;
    }
  }

  return { summaries, plan, reset, onHost };
}
