/**
 * The agents the host lists (`agents/*`) and the conversation's agent: all the first paint
 * holds. What acts on them (a pick, a handoff, the buttons' places) is in ./agentActions.ts,
 * loaded with the picker's chunk (lazy.ts), so the page pays for it after its first paint.
 */
import { computed, signal } from '@preact/signals';
import type { AgentEntry } from '../../../src/shared/protocol';
import type { ConversationModel } from './conversation';
import type { HostMessageIn } from './routes';

export const DEFAULT_AGENT = 'agent';

export function createAgentsModel(deps: {
  conversation: ConversationModel;
  /** Puts text into the message box (a handoff that is not sent at once). */
  draft: (text: string) => void;
}) {
  const list = signal<AgentEntry[]>([]);
  const byId = (id: string | undefined): AgentEntry | undefined =>
    list.value.find((a) => a.id.toLowerCase() === (id ?? DEFAULT_AGENT).toLowerCase());
  return {
    list,
    byId,
    /** The conversation's agent; one no longer listed (its file deleted) shows as Agent, as the host runs it. */
    active: computed(() => byId(deps.conversation.meta.value?.agent)?.id ?? DEFAULT_AGENT),
    conversation: deps.conversation,
    draft: deps.draft,
    onHost(msg: HostMessageIn<'agents'>): void {
      if (msg.type === 'agents/list') list.value = msg.agents;
    },
  };
}

export type AgentsModel = ReturnType<typeof createAgentsModel>;
