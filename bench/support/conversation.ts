/**
 * The stored conversations the benches save, open and scroll: finished question-and-answer turns
 * as the chat store keeps them, filled with answers the local gateway streams through the real
 * client (prose, a long answer, code), so the page renders what it renders for a user.
 */
import { GatewayClient } from '../../src/api/client';
import { newConversation } from '../../src/chat/history/core/store';
import type { Conversation } from '../../src/shared/protocol';

/** Local-gateway prompts whose answers are markdown, a long text, a short answer and a code block. */
export const ANSWER_PROMPTS = [
  '#markdown',
  '#long 150',
  'what does this function return?',
  '#say Use `Array.prototype.at`:\n\n```ts\nconst last = xs.at(-1);\n```\n',
];

/** The local gateway's answers to `prompts`, one request each. */
export async function gatewayAnswers(
  gateway: { url: string; keys: { valid: string } },
  prompts: readonly string[] = ANSWER_PROMPTS,
): Promise<string[]> {
  const client = new GatewayClient({ baseUrl: gateway.url, apiKey: gateway.keys.valid, maxRetries: 0 });
  const out: string[] = [];
  for (const p of prompts) {
    const r = await client.streamChat(
      { model: 'gw-chat', messages: [{ role: 'user', content: p }] },
      { onEvent: () => undefined },
    );
    out.push(r.message.content ?? '');
  }
  return out;
}

export interface TurnsOptions {
  /** The conversation's creation time; turn `t` is asked at `createdAt + 2t`, answered 1 ms later. */
  createdAt?: number;
  /** The question of turn `t`. */
  question?: (turn: number) => string;
}

/** A conversation of `turns` finished turns on gw-chat, turn `t` answered by `answer(t)`. */
export function conversationOfTurns(
  turns: number,
  answer: (turn: number) => string,
  { createdAt = 1, question = (t) => `question ${t}: explain the next part` }: TurnsOptions = {},
): Conversation {
  const c = newConversation(createdAt);
  c.title = `${turns} turns`;
  c.model = 'gw-chat';
  for (let t = 0; t < turns; t++) {
    const at = createdAt + t * 2;
    c.messages.push({ id: `u${t}`, role: 'user', text: question(t), images: [], contexts: [], createdAt: at });
    c.messages.push({
      id: `a${t}`,
      role: 'assistant',
      content: answer(t),
      status: 'done',
      requestedModel: 'gw-chat',
      finishReason: 'stop',
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
      createdAt: at + 1,
    });
  }
  c.updatedAt = createdAt + turns * 2;
  return c;
}
