/**
 * The cost of each answer, attached after the answer ended: the chat asks whoever prices answers
 * (the account feature, through `src/platform/answerCosts.ts`; the chat does not know it) and
 * stores the figure on the answer, so it shows under it, adds up in the header and survives a
 * reload. Nothing here runs before a request is sent: the first token never waits for a price.
 */
import type { AnswerCost, AssistantMessage, ChatMessage, Conversation } from '../../../shared/protocol';
import { rawTextTokens } from '../../../shared/tokens';
import { readCachedTokens } from '../../../api/chat/promptCache';

/** What the chat tells the pricer about one answer: figures and the model, never the text. */
export interface CostQuery {
  model: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  /** Tokens counted here when the gateway reported no usage (a stopped answer, an old relay). */
  estimated?: { prompt_tokens: number; completion_tokens: number };
  /** The gateway's own cost of the answer, as its usage carried it (checked by the pricer). */
  reported?: unknown;
}

/** An answer the gateway may have billed: it ended and something came back. */
export function billable(m: AssistantMessage): boolean {
  if (m.status === 'streaming') return false;
  return m.usage !== undefined || m.content !== '' || (m.reasoning ?? '') !== '' || (m.toolCalls?.length ?? 0) > 0;
}

function messageText(m: ChatMessage): string {
  const parts =
    m.role === 'user'
      ? [m.text, ...m.contexts.map((c) => c.text)]
      : m.role === 'tool'
        ? [m.content]
        : [m.content, m.reasoning ?? '', ...(m.toolCalls ?? []).map((c) => c.function.arguments)];
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * The query for an ended answer: its usage when the gateway reported one, otherwise the tokens
 * counted here (the messages before it as the prompt, its own text as the completion).
 */
export function costQuery(conv: Conversation, m: AssistantMessage): CostQuery {
  const model = m.requestedModel;
  if (m.usage) {
    const cached = cachedTokens(m.usage);
    const reported = (m.usage as { reported_cost?: unknown }).reported_cost;
    return {
      model,
      ...(reported !== undefined ? { reported } : {}),
      usage: {
        prompt_tokens: m.usage.prompt_tokens,
        completion_tokens: m.usage.completion_tokens,
        ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
      },
    };
  }
  let prompt = rawTextTokens(conv.systemPrompt ?? '');
  for (const x of conv.messages) {
    if (x.id === m.id) break;
    prompt += rawTextTokens(messageText(x));
  }
  return { model, estimated: { prompt_tokens: prompt, completion_tokens: rawTextTokens(messageText(m)) } };
}

/**
 * The cached prompt tokens a usage reports, when it does: `prompt_tokens_details.cached_tokens`,
 * or the other dialects relays use (api/chat/promptCache.ts `readCachedTokens`).
 */
export function cachedTokens(u: object | undefined): number | undefined {
  return readCachedTokens(u);
}

/**
 * The costs of one turn's answers: each ended answer is priced once; a cost that came is put on
 * the conversation's copy of the answer (and again on a later copy of the same answer the turn
 * reports, which would otherwise drop it).
 */
export class TurnCosts {
  private readonly asked = new Set<string>();
  private readonly known = new Map<string, AnswerCost>();
  /** Prices asked for and not yet come (the spend caps wait for them before the next request). */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly price: (q: CostQuery) => Promise<AnswerCost | undefined>,
    /** Told when a cost was attached to the conversation's answer `messageId`. */
    private readonly attached: (messageId: string, cost: AnswerCost) => void,
    private readonly warn: (msg: string) => void,
  ) {}

  /** Every message the turn reports, before it is saved or shown. */
  seen(conv: Conversation, m: ChatMessage): void {
    if (m.role !== 'assistant') return;
    const cost = this.known.get(m.id);
    if (cost) {
      m.cost = cost;
      attach(conv, m.id, cost);
      return;
    }
    if (this.asked.has(m.id) || !billable(m)) return;
    this.asked.add(m.id);
    const p = this.price(costQuery(conv, m)).then(
      (c) => {
        if (!c) return;
        this.known.set(m.id, c);
        if (attach(conv, m.id, c)) this.attached(m.id, c);
      },
      (err: unknown) => this.warn(`the answer's cost is unknown: ${err instanceof Error ? err.message : String(err)}`),
    );
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Resolves once every price asked for so far has come (or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

/** Sets the cost on the conversation's answer; false when the answer is gone (regenerated, cut). */
export function attach(conv: Conversation, messageId: string, cost: AnswerCost): boolean {
  const m = conv.messages.find((x) => x.id === messageId);
  if (m?.role !== 'assistant') return false;
  m.cost = cost;
  return true;
}
