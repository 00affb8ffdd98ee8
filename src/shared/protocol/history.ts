/** The stored conversations: the list, opening, renaming, deleting and exporting one. */
import * as z from '../zod';
import { id } from './fields';

export const historyEntrySchema = z.object({
  id,
  title: z.string(),
  updatedAt: z.number(),
  messageCount: z.number().check(z.int()),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Host -> webview. */
export const historyHostMessages = [
  z.object({ type: z.literal('history/list'), entries: z.array(historyEntrySchema), activeId: z.string() }),
] as const;

/** Webview -> host. */
export const historyWebviewMessages = [
  z.object({ type: z.literal('history/list') }),
  z.object({ type: z.literal('history/open'), conversationId: id }),
  z.object({
    type: z.literal('history/rename'),
    conversationId: id,
    title: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
  z.object({ type: z.literal('history/delete'), conversationId: id }),
  z.object({ type: z.literal('history/export') }),
] as const;
