/**
 * What the agent picker and the handoff buttons do (loaded with their chunk, see ./agents.ts):
 * a pick is shown at once and stored by the host; a handoff either sends its prompt as the next
 * question in its agent or puts it into the message box.
 */
import { newId } from '../../../src/shared/ids';
import type { AgentHandoff, AssistantMessage } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { DEFAULT_AGENT, type AgentsModel } from './agents';

/** Shows `id` as the conversation's agent (Agent is stored as none). */
function show(m: AgentsModel, id: string): void {
  const c = m.conversation.meta.value;
  if (c) m.conversation.meta.value = { ...c, agent: id === DEFAULT_AGENT ? undefined : id };
}

/** The conversation runs as `id` from its next turn; shown now, stored by the host. */
export function pickAgent(m: AgentsModel, id: string): void {
  show(m, id);
  post({ type: 'agents/select', id });
}

/** The handoffs under `a`: its agent's, on the last answer once it ended well, while nothing runs. */
export function handoffsFor(m: AgentsModel, a: AssistantMessage): readonly AgentHandoff[] {
  const c = m.conversation;
  if (c.busy.value || a.id !== c.lastAssistantId.value || a.status !== 'done') return [];
  return m.byId(a.agent)?.handoffs ?? [];
}

export function runHandoff(m: AgentsModel, h: AgentHandoff): void {
  if (!h.send) {
    pickAgent(m, h.agent);
    m.draft(h.prompt);
    return;
  }
  if (m.conversation.busy.value) return;
  show(m, h.agent);
  m.conversation.request({
    type: 'agents/handoff',
    requestId: newId('r'),
    agent: h.agent,
    prompt: h.prompt,
    ...(h.model ? { model: h.model } : {}),
  });
}

/** An agent's name for the answers and the cost shares (the id when it is no longer listed). */
export function agentName(m: AgentsModel, id: string | undefined): string {
  return m.byId(id)?.name ?? id ?? DEFAULT_AGENT;
}
