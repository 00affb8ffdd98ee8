/**
 * Spend caps (`chat/caps`): the card that pauses the tool loop before a request that would pass a
 * cap, the conversation's own caps (the gear panel), and the price the composer's pre-send line
 * multiplies the next prompt's tokens by. Figures are whole quota units with their unit (cost.ts).
 */
import * as z from '../zod';
import { moneyUnitSchema } from './cost';

// Host -> page only (never parsed on the host, see index.ts): plain shapes keep activation small.
const quota = z.number();

/**
 * A conversation's own caps, in the gateway's display unit; absent: the settings'. Kept as
 * written (a stored 0 is said to be wrong when used, not a reason to drop the conversation).
 */
export const conversationCapsSchema = z.object({
  turn: z.optional(z.number()),
  conversation: z.optional(z.number()),
});
export type ConversationCaps = z.infer<typeof conversationCapsSchema>;

export const capPauseSchema = z.object({
  id: z.string(),
  kind: z.enum(['turn', 'conversation', 'daily']),
  /** What the scope spent so far, its cap, the next request's prompt and its most with a whole answer. */
  spent: quota,
  cap: quota,
  prompt: quota,
  atMost: quota,
  /** The cap Continue sets. */
  upTo: quota,
  unit: moneyUnitSchema,
  model: z.string(),
});
export type CapPause = z.infer<typeof capPauseSchema>;

/** What the pre-send line needs: the price of a prompt token and the figure above which it shows. */
export const promptPriceSchema = z.object({
  model: z.string(),
  /** Quota units per prompt token (a fraction). */
  perToken: z.number(),
  /** The line shows when the prompt would cost more than this many quota units. */
  above: quota,
  unit: moneyUnitSchema,
});
export type PromptPrice = z.infer<typeof promptPriceSchema>;

/** Host -> webview. */
export const capsHostMessages = [
  /** The loop is paused: the card with its figures, until `caps/resolved` names it. */
  z.object({ type: z.literal('caps/pause'), pause: capPauseSchema }),
  z.object({ type: z.literal('caps/resolved'), id: z.string() }),
  /** The shown conversation's prompt price; absent: no line (no price, or no threshold). */
  z.object({ type: z.literal('caps/price'), price: z.optional(promptPriceSchema) }),
] as const;

const capInput = z.nullable(z.number().check(z.minimum(-1e12), z.maximum(1e12)));

/** Webview -> host. */
export const capsWebviewMessages = [
  z.object({
    type: z.literal('caps/decide'),
    id: z.string().check(z.maxLength(100)),
    decision: z.enum(['continue', 'stop']),
  }),
  /** The gear panel's caps (null: the setting's). Checked by the host, which says what is wrong. */
  z.object({ type: z.literal('caps/set'), turn: capInput, conversation: capInput }),
] as const;
