/** Messages queued while an answer runs (`chat/queue`): the list the composer shows, and what the page does with it. */
import * as z from '../zod';
import { id } from './fields';

/** The longest message the page may queue (the host says so when one is longer). */
const queuedText = z.string().check(z.maxLength(200_000));

export const queuedMessageSchema = z.object({ id, text: z.string(), createdAt: z.number() });
export type QueuedMessageView = z.infer<typeof queuedMessageSchema>;

/** Host -> webview: a conversation's queue, on every change (and when a page loads). */
export const queueHostMessages = [
  z.object({
    type: z.literal('queue/list'),
    conversationId: id,
    items: z.array(queuedMessageSchema),
    /** Text that could not be queued: back into the composer (when it is empty), never lost. */
    returned: z.optional(z.string()),
  }),
] as const;

/**
 * Webview -> host. Each names the conversation it was written in: the user may have switched
 * meanwhile, and a queued message stays with its conversation. `now`: stop the running answer
 * and send the queue (Ctrl/Cmd+Enter).
 */
export const queueWebviewMessages = [
  z.object({ type: z.literal('queue/add'), conversationId: id, text: queuedText, now: z.optional(z.boolean()) }),
  z.object({ type: z.literal('queue/edit'), conversationId: id, id, text: queuedText }),
  z.object({ type: z.literal('queue/remove'), conversationId: id, id }),
  z.object({ type: z.literal('queue/sendNow'), conversationId: id }),
] as const;
