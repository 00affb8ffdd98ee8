/** The `/` menu of the composer: prompt files and skills, listed by the host when the menu opens. */
import * as z from '../zod';

/** One row of the `/` menu. */
export const slashItemSchema = z.object({
  kind: z.enum(['prompt', 'skill']),
  name: z.string().check(z.maxLength(100)),
  description: z.optional(z.string()),
  argumentHint: z.optional(z.string()),
  scope: z.enum(['workspace', 'user']),
});
export type SlashItem = z.infer<typeof slashItemSchema>;

/** Host -> webview. */
export const slashHostMessages = [
  /** The commands found now (read again for every `slash/list`). */
  z.object({ type: z.literal('slash/commands'), items: z.array(slashItemSchema) }),
] as const;

/** Webview -> host. */
export const slashWebviewMessages = [z.object({ type: z.literal('slash/list') })] as const;
