/** The context window: the meter, the summary of earlier turns, the tools a model's requests carry. */
import * as z from '../zod';
import { id } from './fields';

/** Earlier turns summarised to fit the context window (see `chat/context/core/compaction.ts`). */
export const compactionSchema = z.object({
  summary: z.string(),
  /** The last message the summary covers. */
  throughId: z.string(),
  /** How many messages it covers (the conversation's first through `throughId`). */
  messageCount: z.number().check(z.int()),
  createdAt: z.number(),
});
export type Compaction = z.infer<typeof compactionSchema>;
/** Which tools a model's requests carry: chosen per model when the tools alone overflow its window. */
export const toolModeSchema = z.enum(['all', 'readOnly', 'none']);
export type ToolMode = z.infer<typeof toolModeSchema>;

/** The context meter: the next request's estimated tokens by part, against the model's window. */
export const contextMeterSchema = z.object({
  model: z.string(),
  window: z.number(),
  /** Where the window came from: the model's record, the overrides setting, the default, an overflow error. */
  source: z.enum(['model', 'override', 'default', 'error']),
  /** The record's field, when `source` is `model`. */
  field: z.optional(z.string()),
  system: z.number(),
  tools: z.number(),
  history: z.number(),
  attachments: z.number(),
  /** Kept free for the answer. */
  reserve: z.number(),
  /** For the draft's estimate in the webview (calibrated against the server's counts). */
  charsPerToken: z.number(),
  /** The server's `prompt_tokens` of the last answer, when there is one. */
  lastPromptTokens: z.optional(z.number()),
  toolMode: toolModeSchema,
  /** System prompt + tools + reserve alone exceed the window. */
  fixedTooLarge: z.boolean(),
});
export type ContextMeter = z.infer<typeof contextMeterSchema>;

/** Host -> webview. */
export const contextHostMessages = [
  z.object({ type: z.literal('context/meter'), meter: contextMeterSchema }),
  z.object({ type: z.literal('context/compacted'), conversationId: id, compaction: z.optional(compactionSchema) }),
] as const;

/** Webview -> host. */
export const contextWebviewMessages = [
  z.object({ type: z.literal('context/compact') }),
  z.object({ type: z.literal('context/toolMode'), mode: toolModeSchema }),
] as const;
