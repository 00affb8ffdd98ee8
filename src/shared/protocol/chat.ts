/** The conversation: its messages and parameters, the answer being streamed, the error view. */
import * as z from '../zod';
import { compactionSchema } from './context';
import { conversationCapsSchema } from './caps';
import { answerCostSchema } from './cost';
import { id, requestId } from './fields';
import { contextAttachmentSchema, mentionItemSchema } from './mentions';

/** Chat parameters of spec 2.1 that the user may set; wire names so a request can take them as-is. */
export const chatParamsSchema = z.object({
  temperature: z.nullable(z.number().check(z.minimum(0), z.maximum(2))),
  top_p: z.nullable(z.number().check(z.minimum(0), z.maximum(1))),
  max_tokens: z.nullable(z.number().check(z.int(), z.minimum(1))),
  stop: z.array(z.string().check(z.minLength(1))).check(z.maxLength(4)),
  presence_penalty: z.nullable(z.number().check(z.minimum(-2), z.maximum(2))),
  frequency_penalty: z.nullable(z.number().check(z.minimum(-2), z.maximum(2))),
  response_format: z.enum(['text', 'json_object']),
  user: z.string(),
  stream: z.boolean(),
});
export type ChatParams = z.infer<typeof chatParamsSchema>;

/** Per-conversation overrides of the settings' defaults; a missing key means "use the setting". */
export const paramOverridesSchema = z.partial(chatParamsSchema);
export type ParamOverrides = z.infer<typeof paramOverridesSchema>;

export const imageAttachmentSchema = z.object({
  name: z.string().check(z.maxLength(500)),
  mime: z.string().check(z.regex(/^image\/[a-z0-9.+-]+$/i)),
  /** A complete base64 data URL (`data:image/png;base64,…`), exactly what is sent to the model. */
  dataUrl: z.string().check(z.regex(/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+$/i)),
  bytes: z.number().check(z.int(), z.nonnegative()),
});
export type ImageAttachment = z.infer<typeof imageAttachmentSchema>;

/** Editor context ("Ask Gateway Studio about the selection"). */
export const editorContextSchema = z.object({
  fileName: z.string().check(z.maxLength(1000)),
  language: z.string().check(z.maxLength(100)),
  text: z.string(),
  startLine: z.optional(z.number().check(z.int(), z.nonnegative())),
  endLine: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type EditorContext = z.infer<typeof editorContextSchema>;
const usageCounters = z.looseObject({
  prompt_tokens: z.nullish(z.number()),
  completion_tokens: z.nullish(z.number()),
  total_tokens: z.nullish(z.number()),
});
/**
 * Token usage (spec 2.2), the one schema for it: read from the gateway's chunks and carried to the
 * webview on answers. Servers omit counters (a missing one is 0 and a missing total the sum,
 * rather than failing a whole answer) and add fields, which are kept.
 */
export const usageSchema = z.pipe(
  usageCounters,
  z.transform((u: z.infer<typeof usageCounters>) => {
    const prompt = u.prompt_tokens ?? 0;
    const completion = u.completion_tokens ?? 0;
    return {
      ...u,
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: u.total_tokens ?? prompt + completion,
    };
  }),
);
export type Usage = z.output<typeof usageSchema>;

export const errorActionSchema = z.enum([
  'setApiKey',
  'openSettings',
  'retry',
  'showLog',
  'selectModel',
  // The context window's: summarise now; send this model's requests without tools, or read-only ones only.
  'compact',
  'toolsOff',
  'toolsReadOnly',
]);
export type ErrorAction = z.infer<typeof errorActionSchema>;

/** A failure in user words (from `describeError`), with the buttons that act on it. */
export const errorViewSchema = z.object({
  title: z.string(),
  detail: z.string(),
  actions: z.array(errorActionSchema),
});
export type ErrorView = z.infer<typeof errorViewSchema>;

export const toolCallWireSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/** How an assistant message ended. `stopped` is the user's Stop; `error` keeps the partial text. */
export const messageStatusSchema = z.enum(['streaming', 'done', 'stopped', 'error']);

export const userMessageSchema = z.object({
  id,
  role: z.literal('user'),
  text: z.string(),
  images: z.array(imageAttachmentSchema),
  contexts: z.array(editorContextSchema),
  /** @-mentions resolved on send (absent in conversations stored before mentions existed). */
  attachments: z.optional(z.array(contextAttachmentSchema)),
  createdAt: z.number(),
});
/** A Responses reasoning item as the gateway sent it (`encrypted_content` is opaque). */
const reasoningItemSchema = z.object({
  type: z.literal('reasoning'),
  id: z.optional(z.string()),
  summary: z.array(z.unknown()),
  encrypted_content: z.string(),
});
export const assistantMessageSchema = z.object({
  id,
  role: z.literal('assistant'),
  content: z.string(),
  reasoning: z.optional(z.string()),
  /** How long the model thought: from its first reasoning to its first answer text or call (ms). */
  reasoningMs: z.optional(z.number()),
  /**
   * The encrypted reasoning a Responses answer came with and the model and profile it came from, sent back
   * with the answer (requests are stateless), so it survives a reload. Kept on the host only (the
   * page never gets it) and bounded: chat/conversation/core/encryptedReasoning.ts.
   */
  encryptedReasoning: z.optional(
    z.object({
      model: z.string(),
      /** The conversation's gateway profile when it came: another gateway could not read it. */
      profile: z.optional(z.string()),
      items: z.array(reasoningItemSchema),
    }),
  ),
  toolCalls: z.optional(z.array(toolCallWireSchema)),
  status: messageStatusSchema,
  /** The model that was asked. */
  requestedModel: z.string(),
  /** The model the response named, when it differs (an aligned version). */
  model: z.optional(z.string()),
  finishReason: z.optional(z.string()),
  usage: z.optional(usageSchema),
  /** The agent that answered (`chat/agents`: `agent`, `ask`, `plan` or a custom agent's name). */
  agent: z.optional(z.string().check(z.maxLength(200))),
  /** What the answer cost (usage × price), attached after it ended; kept with the conversation. */
  cost: z.optional(answerCostSchema),
  error: z.optional(errorViewSchema),
  /** A notice shown under the answer (content filter, tool-round limit, retry that happened). */
  notices: z.optional(z.array(z.string())),
  createdAt: z.number(),
});
export const toolMessageSchema = z.object({
  id,
  role: z.literal('tool'),
  toolCallId: z.string(),
  name: z.string(),
  content: z.string(),
  /** Images the tool returned (an MCP server's), sent to the model after the turn's tool messages. */
  images: z.optional(z.array(imageAttachmentSchema).check(z.maxLength(8))),
  createdAt: z.number(),
});
export const chatMessageSchema = z.discriminatedUnion('role', [
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);
export type UserMessage = z.infer<typeof userMessageSchema>;
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;
export type ToolResultMessage = z.infer<typeof toolMessageSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export const conversationSchema = z.object({
  id,
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Model for this conversation; empty means the `gatewayStudio.chatModel` setting. */
  model: z.string(),
  /** System prompt for this conversation; undefined means the setting. */
  systemPrompt: z.optional(z.string()),
  params: paramOverridesSchema,
  messages: z.array(chatMessageSchema),
  /** The summary sent in place of the messages up to `throughId` (they stay stored and shown). */
  compaction: z.optional(compactionSchema),
  /** Ids of the rules files switched off for this conversation (see `prompt/rules`). */
  disabledRules: z.optional(z.array(z.string())),
  /**
   * The gateway profile it talks to (issue 22), set at its first request; absent in conversations
   * from before profiles (they go on with the active one, and keep it from then on).
   */
  profile: z.optional(z.string()),
  /** The agent its turns run as (`chat/agents`); absent: the built-in Agent, as before agents. */
  agent: z.optional(z.string().check(z.maxLength(200))),
  /** Its own spend caps (the gear panel, or Continue on the cap's card); absent: the settings'. */
  caps: z.optional(conversationCapsSchema),
});
export type Conversation = z.infer<typeof conversationSchema>;
/** Strings the webview shows, localised by the host (`vscode.l10n`), keyed by English id. */
export const stringsSchema = z.record(z.string(), z.string());

/** Host -> webview. */
export const chatHostMessages = [
  z.object({
    type: z.literal('chat/snapshot'),
    conversation: conversationSchema,
    defaults: chatParamsSchema,
    defaultModel: z.string(),
    defaultSystemPrompt: z.string(),
    busyRequestId: z.optional(z.string()),
    strings: stringsSchema,
    maxImageBytes: z.number().check(z.int(), z.positive()),
  }),
  /** Replace the whole conversation (after new chat, open, edit, regenerate, settings change). */
  z.object({
    type: z.literal('chat/conversation'),
    conversation: conversationSchema,
    defaults: chatParamsSchema,
    defaultModel: z.string(),
    defaultSystemPrompt: z.string(),
  }),
  /** Add or replace one message (matched by id). */
  z.object({ type: z.literal('chat/message'), requestId: z.optional(z.string()), message: chatMessageSchema }),
  z.object({
    type: z.literal('chat/delta'),
    requestId: z.string(),
    messageId: z.string(),
    content: z.optional(z.string()),
    reasoning: z.optional(z.string()),
  }),
  z.object({ type: z.literal('chat/done'), requestId: z.string(), message: z.optional(assistantMessageSchema) }),
  z.object({
    type: z.literal('chat/error'),
    requestId: z.string(),
    error: errorViewSchema,
    message: z.optional(assistantMessageSchema),
  }),
  z.object({ type: z.literal('chat/busy'), requestId: z.optional(z.string()) }),
  /** The cost of an answer of the shown conversation, known after it ended. */
  z.object({
    type: z.literal('chat/cost'),
    conversationId: z.string(),
    messageId: z.string(),
    cost: answerCostSchema,
  }),
  z.object({ type: z.literal('chat/context'), context: editorContextSchema, prompt: z.optional(z.string()) }),
  z.object({ type: z.literal('chat/notice'), level: z.enum(['info', 'warning', 'error']), text: z.string() }),
  z.object({ type: z.literal('chat/focus') }),
] as const;

/** Webview -> host. */
export const chatWebviewMessages = [
  z.object({ type: z.literal('webview/ready') }),
  z.object({
    type: z.literal('chat/send'),
    requestId,
    text: z.string().check(z.maxLength(1_000_000)),
    images: z.array(imageAttachmentSchema).check(z.maxLength(20)),
    contexts: z.array(editorContextSchema).check(z.maxLength(20)),
    mentions: z.optional(z.array(mentionItemSchema).check(z.maxLength(50))),
  }),
  z.object({ type: z.literal('chat/cancel'), requestId }),
  z.object({ type: z.literal('chat/regenerate'), requestId }),
  z.object({ type: z.literal('chat/editResend'), requestId, text: z.string().check(z.maxLength(1_000_000)) }),
  z.object({ type: z.literal('chat/continue'), requestId }),
  z.object({ type: z.literal('chat/retry'), requestId }),
  z.object({ type: z.literal('chat/new') }),
  z.object({ type: z.literal('chat/setModel'), model: z.string().check(z.maxLength(200)) }),
  z.object({
    type: z.literal('chat/setParams'),
    params: paramOverridesSchema,
    systemPrompt: z.optional(z.nullable(z.string().check(z.maxLength(100_000)))),
  }),
  z.object({ type: z.literal('error/action'), action: errorActionSchema, requestId: z.optional(z.string()) }),
] as const;
