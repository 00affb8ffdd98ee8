/** The panel's editor actions: code blocks, messages, links, and the images the user picks. */
import * as z from '../zod';
import { imageAttachmentSchema } from './chat';
import { id } from './fields';

/** Host -> webview. */
export const panelHostMessages = [
  z.object({
    type: z.literal('images/picked'),
    images: z.array(imageAttachmentSchema),
    problems: z.array(z.string()),
  }),
] as const;

/** Webview -> host. */
export const panelWebviewMessages = [
  z.object({ type: z.literal('images/pick') }),
  z.object({ type: z.literal('images/rejected'), name: z.string(), reason: z.string() }),
  z.object({ type: z.literal('code/copy'), code: z.string() }),
  z.object({ type: z.literal('code/insert'), code: z.string(), language: z.string().check(z.maxLength(100)) }),
  z.object({ type: z.literal('code/open'), code: z.string(), language: z.string().check(z.maxLength(100)) }),
  z.object({ type: z.literal('message/copy'), messageId: id }),
  z.object({ type: z.literal('link/open'), href: z.string().check(z.maxLength(10_000)) }),
] as const;
