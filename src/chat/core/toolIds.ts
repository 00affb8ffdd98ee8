import type { ChatMessage, Conversation } from '../../shared/protocol';
import type { ToolCall } from './toolSeam';

/**
 * Longest tool-call id some upstreams accept (OpenAI refuses longer ones on the next turn); the
 * same limit the accumulator keeps within one answer.
 */
export const MAX_TOOL_CALL_ID_LENGTH = 40;

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
 * Ids for the calls of one new answer that no earlier message of the conversation uses. Relays
 * that number calls per answer send `call_0` again in every answer; the webview keys cards by id
 * and some servers refuse a conversation with one id on two assistant messages.
 *
 * The scheme is the accumulator's: an id is kept exactly as sent when it is non-empty and neither
 * `taken` nor an earlier call of this answer has it (a resumed conversation must send back the ids
 * the server knows); otherwise it gets the first free numbered suffix (`call_0_2`), or, when that
 * would pass {@link MAX_TOOL_CALL_ID_LENGTH}, `call_gs_<position>`. A replacement never takes an
 * id another call of this answer was sent with. Deterministic for the same input.
 *
 * @param sent the answer's ids in call order
 * @param taken ids used by earlier messages of the conversation
 */
export function idsUniqueAcross(sent: readonly string[], taken: ReadonlySet<string>): string[] {
  const reserved = new Set(sent.filter((x) => x !== ''));
  const used = new Set(taken);
  return sent.map((id, i) => {
    if (id !== '' && !used.has(id)) {
      used.add(id);
      return id;
    }
    const free = (c: string) => !used.has(c) && !reserved.has(c) && c.length <= MAX_TOOL_CALL_ID_LENGTH;
    let out: string | undefined;
    // Past the length limit every longer suffix fails too, so the loop stops at the first such one.
    for (let k = 2; id !== '' && !out && `${id}_${k}`.length <= MAX_TOOL_CALL_ID_LENGTH; k++) if (free(`${id}_${k}`)) out = `${id}_${k}`;
    for (let k = 1; !out; k++) {
      const c = k === 1 ? `call_gs_${i}` : `call_gs_${i}_${k}`;
      if (free(c)) out = c;
    }
    used.add(out);
    return out;
  });
}

/**
 * The calls of a new answer with ids unique across the conversation ({@link idsUniqueAcross}
 * against every message but the answer itself). Calls whose id is kept are returned as they are.
 */
export function callsUniqueIn(conversation: Conversation, answerId: string, calls: readonly ToolCall[]): ToolCall[] {
  const taken = toolCallIdsOf(conversation.messages.filter((m) => m.id !== answerId));
  const ids = idsUniqueAcross(calls.map((c) => c.id), taken);
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
      const ids = idsUniqueAcross(calls.map((x) => x.id), taken);
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
