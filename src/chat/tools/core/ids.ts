import type { ChatMessage, Conversation } from '../../../shared/protocol';
import type { ToolCall } from '../../../api/chat/wire';

import { uniqueToolCallIds as idsUniqueAcross } from '../../../api/chat/toolCallIds';

/** The accumulator's scheme, applied against the rest of the conversation (`taken`). */
export { idsUniqueAcross };

/**
 * Every tool-call id the messages use: the calls of assistant messages and the ids tool messages
 * answer (an orphaned tool message still holds its id: reusing it would pair it with a new call).
 */
export function toolCallIdsOf(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) ids.add(c.id);
    else if (m.role === 'tool') ids.add(m.toolCallId);
  }
  return ids;
}

/**
 * The calls of a new answer with ids unique across the conversation ({@link idsUniqueAcross}
 * against every message but the answer itself). Calls whose id is kept are returned as they are.
 */
export function callsUniqueIn(conversation: Conversation, answerId: string, calls: readonly ToolCall[]): ToolCall[] {
  const taken = toolCallIdsOf(conversation.messages.filter((m) => m.id !== answerId));
  const ids = idsUniqueAcross(
    calls.map((c) => c.id),
    taken,
  );
  return calls.map((c, i) => (ids[i] === c.id ? c : { ...c, id: ids[i]! }));
}

/**
 * Repairs a conversation stored before tool-call ids were made unique across it: a later
 * answer's call that reuses an earlier id (or an id repeated within one answer, as stored before
 * the accumulator fixed that) is renamed, and so is the tool message that answers it. Tool
 * messages between an answer and the next assistant or user message answer that answer's calls;
 * the n-th one naming an id answers the n-th call sent with it. Returns how many calls were
 * renamed; mutates `c`. A conversation whose ids are already unique is left exactly as it is.
 */
export function repairToolCallIds(c: Conversation): number {
  const taken = new Set<string>();
  /** Id as stored -> final ids of the calls stored with it, in call order, not yet answered. */
  let open = new Map<string, string[]>();
  let renamed = 0;
  for (const m of c.messages) {
    if (m.role === 'assistant') {
      open = new Map();
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) continue;
      const ids = idsUniqueAcross(
        calls.map((x) => x.id),
        taken,
      );
      m.toolCalls = calls.map((call, i) => {
        const id = ids[i]!;
        taken.add(id);
        open.set(call.id, [...(open.get(call.id) ?? []), id]);
        if (id === call.id) return call;
        renamed++;
        return { ...call, id };
      });
    } else if (m.role === 'tool') {
      const to = open.get(m.toolCallId)?.shift();
      if (to !== undefined) m.toolCallId = to;
      taken.add(m.toolCallId);
    } else {
      open = new Map();
    }
  }
  return renamed;
}
