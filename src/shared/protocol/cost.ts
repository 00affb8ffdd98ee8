/**
 * What an answer cost, as the chat stores it on the answer and the page shows it: whole quota
 * units in the gateway's unit, so the page formats and adds them without floating-point residue
 * (`src/shared/money.ts`). The account feature computes it (usage × price) or takes the gateway's own
 * report (`reportedBy`); the chat only carries it.
 */
import * as z from '../zod';

const whole = z.number().check(z.int(), z.minimum(1), z.maximum(1e12));

export const moneyUnitSchema = z.object({
  kind: z.enum(['USD', 'CNY', 'TOKENS', 'CUSTOM']),
  quotaPerUnit: whole,
  rateMicro: whole,
  symbol: z.string().check(z.maxLength(24)),
});

export const answerCostSchema = z.object({
  /** Quota units; absent when no figure can be given (no price is known for the model). */
  quota: z.optional(z.number().check(z.int(), z.nonnegative(), z.maximum(1e15))),
  unit: moneyUnitSchema,
  /** Not the gateway's own count: the price is unknown, or the tokens were counted here. */
  estimate: z.boolean(),
  /** Why it is an estimate: no price for the model, or the gateway reported no token usage. */
  reason: z.optional(z.enum(['no-price', 'no-usage'])),
  /** The gateway reported this figure itself (OpenRouter's `usage.cost`, LiteLLM's header): not computed here. */
  reportedBy: z.optional(z.enum(['usage.cost', 'x-litellm-response-cost'])),
  /** Where the model's price came from, for a figure computed here: the gateway's price list or the user's setting. */
  priceFrom: z.optional(z.enum(['gateway', 'settings'])),
  /**
   * The share of the prompt the gateway served from its cache, in whole percent, and what that
   * saved at the model's cached price (quota units; absent when no cached price is known).
   */
  cached: z.optional(
    z.object({
      percent: z.number().check(z.int(), z.minimum(0), z.maximum(100)),
      saved: z.optional(z.number().check(z.int(), z.nonnegative(), z.maximum(1e15))),
    }),
  ),
});
export type AnswerCost = z.infer<typeof answerCostSchema>;
