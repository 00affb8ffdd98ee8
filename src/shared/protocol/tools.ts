/** The tools: their list and choice, the cards of calls with their approval, a call's video. */
import * as z from '../zod';
import { id } from './fields';
import { galleryTaskSchema } from './gallery';

/**
 * How a call is shown beyond its arguments, declared by the tool rather than read from its name
 * (another extension's tool may be called `run_command` too): a diff of the change, or the
 * command line.
 */
export const toolPreviewSchema = z.enum(['diff', 'command']);
export type ToolPreview = z.infer<typeof toolPreviewSchema>;

export const toolCardStateSchema = z.enum(['awaiting-approval', 'running', 'done', 'denied', 'error']);

/** One tool card in the webview; sent again whenever its state changes. */
export const toolCallUpdateSchema = z.object({
  callId: z.string().check(z.minLength(1)),
  name: z.string(),
  argumentsJson: z.string(),
  state: toolCardStateSchema,
  readOnly: z.boolean(),
  resultPreview: z.optional(z.string()),
  /** Why this call asks (a protected or secret file, Restricted Mode); shown on the card. */
  warning: z.optional(z.string()),
  /** The call asks every time: the card offers no "Always allow". */
  askEveryTime: z.optional(z.boolean()),
  preview: z.optional(toolPreviewSchema),
  /** What the user's hooks and command rules said about the call: each hook's exit and output. */
  hookOutput: z.optional(z.string()),
  /** Who provides the tool, when not Gateway Studio (an MCP server's name). */
  source: z.optional(z.string()),
});
export type ToolCallUpdate = z.infer<typeof toolCallUpdateSchema>;

export const toolDecisionSchema = z.enum(['allow', 'deny', 'alwaysAllow']);
export type ToolDecision = z.infer<typeof toolDecisionSchema>;

export const toolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  trusted: z.boolean(),
  /** For the cards the conversation draws when no live update is there (a reloaded view). */
  preview: z.optional(toolPreviewSchema),
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

/** `auto`, `none`, or the name of one tool the model must call. */
export const toolChoiceSettingSchema = z.union([
  z.literal('auto'),
  z.literal('none'),
  z.object({ name: z.string().check(z.minLength(1)) }),
]);
export type ToolChoiceSetting = z.infer<typeof toolChoiceSettingSchema>;
/** What a tool card may do with the video its call saved. */
export const VIDEO_CARD_ACTIONS = ['open', 'reveal', 'openExternal'] as const;
export type VideoCardAction = (typeof VIDEO_CARD_ACTIONS)[number];

/** Host -> webview. */
export const toolsHostMessages = [
  z.object({ type: z.literal('tools/call'), update: toolCallUpdateSchema }),
  /**
   * The media job a tool call started (a video task today), as a gallery card, sent on every
   * change of it (and in the ready state). Host and page ship together, so the old name
   * (`tools/videoTask`) never reaches a page of this version.
   */
  z.object({ type: z.literal('tools/mediaJob'), callId: id, task: galleryTaskSchema }),
  z.object({ type: z.literal('tools/list'), tools: z.array(toolInfoSchema), choice: toolChoiceSettingSchema }),
] as const;

/** Webview -> host. */
export const toolsWebviewMessages = [
  z.object({
    type: z.literal('tools/decide'),
    callId: z.string().check(z.minLength(1)),
    decision: toolDecisionSchema,
  }),
  z.object({ type: z.literal('tools/videoAction'), callId: id, action: z.enum(VIDEO_CARD_ACTIONS) }),
  /** An ask_user card answered: an option's index, or the user's own words. */
  z.object({
    type: z.literal('tools/answer'),
    callId: id,
    answer: z.union([
      z.object({ choice: z.number().check(z.int()) }),
      z.object({ text: z.string().check(z.maxLength(20_000)) }),
    ]),
  }),
  z.object({ type: z.literal('tools/setEnabled'), name: z.string(), enabled: z.boolean() }),
  z.object({ type: z.literal('tools/setTrusted'), name: z.string(), trusted: z.boolean() }),
  z.object({ type: z.literal('tools/setChoice'), choice: toolChoiceSettingSchema }),
] as const;
