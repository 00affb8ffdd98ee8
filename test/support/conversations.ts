import { newConversation } from '../../src/chat/history/core/store';
import type { Conversation } from '../../src/shared/protocol';

/** A conversation of one question and its finished echo answer, stamped `at` (its ids too). */
export function withMessage(text: string, at = 1000): Conversation {
  const c = newConversation(at);
  c.messages.push({ id: `u${at}`, role: 'user', text, images: [], contexts: [], createdAt: at });
  c.messages.push({
    id: `a${at}`,
    role: 'assistant',
    content: `Echo: ${text}`,
    status: 'done',
    requestedModel: 'gw-chat',
    createdAt: at + 1,
  });
  c.updatedAt = at + 1;
  return c;
}
