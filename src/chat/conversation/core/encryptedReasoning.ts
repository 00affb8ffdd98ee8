/**
 * How much encrypted reasoning a conversation keeps for replay (issue 22: requested and sent back
 * on the Responses API, whose requests are stateless). It is opaque ciphertext, often a few KB an
 * answer and far more after long thinking, and it is written with the conversation's file on
 * every save, so it is bounded twice:
 * - an answer keeps at most {@link ANSWER_CHARS} characters of it (its JSON), or none: a part of
 *   it would not be the model's thinking any more;
 * - a conversation keeps at most {@link CONVERSATION_CHARS}, the newest answers first: the tool
 *   rounds of the turn in progress need theirs most; older answers lose theirs first.
 * Dropping it costs only the model's memory of its own thinking, never the request or the text:
 * an answer without it is sent back as text and calls, as on chat completions.
 */
import type { EncryptedReasoning } from '../../../api/chat/wire';
import type { AssistantMessage, ChatMessage, Conversation } from '../../../shared/protocol';

export const ANSWER_CHARS = 64 * 1024;
export const CONVERSATION_CHARS = 256 * 1024;

const sizeOf = (r: EncryptedReasoning): number => JSON.stringify(r.items).length;

type Kept = NonNullable<AssistantMessage['encryptedReasoning']>;

/**
 * What an answer keeps of the encrypted reasoning it came with: all of it, or nothing past the
 * limit; with the conversation's profile, as only that gateway can read it.
 */
export function reasoningToKeep(r: EncryptedReasoning | undefined, profile: string | undefined): Kept | undefined {
  if (!r || r.items.length === 0 || sizeOf(r) > ANSWER_CHARS) return undefined;
  return { model: r.model, ...(profile !== undefined ? { profile } : {}), items: r.items.map((i) => ({ ...i })) };
}

/**
 * What goes back with an answer: its encrypted reasoning while the conversation is on the profile
 * it came from. A conversation moved to another profile (a switch moves the shown one) sends none:
 * that gateway could not verify it and would refuse the whole request.
 */
export function reasoningToReplay(
  c: Pick<Conversation, 'profile'>,
  m: AssistantMessage,
): EncryptedReasoning | undefined {
  const r = m.encryptedReasoning;
  if (!r || r.profile !== c.profile) return undefined;
  return { model: r.model, items: r.items };
}

/**
 * Drops the encrypted reasoning of the oldest answers once the conversation's passes its limit.
 * A trimmed answer is replaced by a new object, not changed in place: the store keeps the parts
 * of a long conversation whose message objects are the ones it wrote (history/core/parts.ts).
 */
export function trimReasoning(messages: ChatMessage[]): void {
  let total = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.encryptedReasoning) continue;
    total += sizeOf(m.encryptedReasoning);
    if (total <= CONVERSATION_CHARS) continue;
    const { encryptedReasoning: _dropped, ...rest } = m;
    messages[i] = rest;
  }
}
