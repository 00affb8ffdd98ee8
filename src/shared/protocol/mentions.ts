/** The @-mention picker's rows, the composer's chips, and a mention's content as the model saw it. */
import * as z from '../zod';
import { id } from './fields';

/** What an @-mention can name (`image` is a file mention of an image file). */
export const MENTION_KINDS = [
  'file',
  'folder',
  'editor',
  'selection',
  'problems',
  'changes',
  'terminal',
  'image',
  /** A resource of an MCP server (`chat/mcp`): its server and URI in `ref`. */
  'mcpResource',
] as const;
export const mentionKindSchema = z.enum(MENTION_KINDS);
export type MentionKind = z.infer<typeof mentionKindSchema>;

/**
 * One row of the @-picker and one chip in the composer. `ref` is what the host resolves on send:
 * a file or folder URI, or empty for the kinds that mean "the current one" (selection, changes,
 * terminal, problems of the workspace).
 */
export const mentionItemSchema = z.object({
  kind: mentionKindSchema,
  label: z.string().check(z.maxLength(500)),
  detail: z.optional(z.string().check(z.maxLength(500))),
  ref: z.string().check(z.maxLength(4000)),
});
export type MentionItem = z.infer<typeof mentionItemSchema>;

/**
 * A mention's content as the model saw it, stored with the user message so history and export
 * show the same. `text` is already cut to the size limit; `truncated` and `originalChars` say so.
 */
export const contextAttachmentSchema = z.object({
  kind: mentionKindSchema,
  label: z.string().check(z.maxLength(500)),
  /** Workspace-relative path of the file or folder, when there is one. */
  path: z.optional(z.string().check(z.maxLength(2000))),
  /** 1-based, inclusive. */
  startLine: z.optional(z.number().check(z.int(), z.positive())),
  endLine: z.optional(z.number().check(z.int(), z.positive())),
  language: z.optional(z.string().check(z.maxLength(100))),
  text: z.string(),
  truncated: z.optional(z.boolean()),
  originalChars: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** Why there is no content, or what else the model should know (an image not sent). */
  note: z.optional(z.string().check(z.maxLength(2000))),
});
export type ContextAttachment = z.infer<typeof contextAttachmentSchema>;

/** Host -> webview. */
export const mentionsHostMessages = [
  /** The picker's rows for one query (`queryId` echoes the webview's). */
  z.object({
    type: z.literal('mentions/results'),
    queryId: id,
    items: z.array(mentionItemSchema),
    note: z.optional(z.string()),
  }),
  /** Chips to add to the composer (Add File to Chat, a drop from the explorer). */
  z.object({ type: z.literal('mentions/add'), items: z.array(mentionItemSchema), problems: z.array(z.string()) }),
] as const;

/** Webview -> host. */
export const mentionsWebviewMessages = [
  z.object({ type: z.literal('mentions/query'), queryId: id, query: z.string().check(z.maxLength(500)) }),
  /** Files dropped on the composer (VS Code's explorer gives URIs). */
  z.object({
    type: z.literal('mentions/drop'),
    uris: z.array(z.string().check(z.maxLength(4000))).check(z.maxLength(50)),
  }),
] as const;
