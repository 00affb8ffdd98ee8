/**
 * The host <-> chat webview protocol. One discriminated union per direction, keyed on `type`;
 * both sides parse what they receive with these schemas and drop (and log) anything that does
 * not match, so nothing unvalidated crosses. A request (`chat/send`, `chat/regenerate`, …)
 * carries a `requestId`; the host answers it with any number of `chat/message` / `chat/delta`
 * messages and then exactly one `chat/done` or `chat/error` with the same id. `chat/cancel`
 * aborts it. The host queues everything until the webview says `webview/ready`, then sends one
 * `chat/snapshot`, so a reloaded or re-shown webview always starts from the full state.
 *
 * The API key never crosses this boundary: no message has a field for it.
 */
import { galleryTaskSchema } from './gallery';
import * as z from '../zod';

const id = z.string().check(z.minLength(1), z.maxLength(200));

// ---------------------------------------------------------------------------------------------
// Shared value shapes

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
export const assistantMessageSchema = z.object({
  id,
  role: z.literal('assistant'),
  content: z.string(),
  reasoning: z.optional(z.string()),
  toolCalls: z.optional(z.array(toolCallWireSchema)),
  status: messageStatusSchema,
  /** The model that was asked. */
  requestedModel: z.string(),
  /** The model the response named, when it differs (an aligned version). */
  model: z.optional(z.string()),
  finishReason: z.optional(z.string()),
  usage: z.optional(usageSchema),
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
});
export type Conversation = z.infer<typeof conversationSchema>;

export const historyEntrySchema = z.object({
  id,
  title: z.string(),
  updatedAt: z.number(),
  messageCount: z.number().check(z.int()),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const modelInfoSchema = z.object({
  id: z.string(),
  ownedBy: z.optional(z.string()),
  capabilities: z.array(z.string()),
  supportsImages: z.boolean(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

export const toolCardStateSchema = z.enum(['awaiting-approval', 'running', 'done', 'denied', 'error']);
export type ToolCardState = z.infer<typeof toolCardStateSchema>;

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
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

/** `auto`, `none`, or the name of one tool the model must call. */
export const toolChoiceSettingSchema = z.union([
  z.literal('auto'),
  z.literal('none'),
  z.object({ name: z.string().check(z.minLength(1)) }),
]);
export type ToolChoiceSetting = z.infer<typeof toolChoiceSettingSchema>;

// Checkpoints (restore the files an answer changed): the shapes of one block of messages below.
/** An answer that has a checkpoint: the Restore button under it. */
export const checkpointSummarySchema = z.object({
  answerId: id,
  files: z.number().check(z.int(), z.nonnegative()),
  unrecorded: z.number().check(z.int(), z.nonnegative()),
});
export type CheckpointSummaryView = z.infer<typeof checkpointSummarySchema>;
/** One file of a proposed restore (see `PlannedFile` in chat/checkpoints/core/checkpoints.ts). */
export const checkpointFileSchema = z.object({
  path: z.string(),
  relative: z.string(),
  status: z.enum(['ok', 'changed', 'same', 'unrecorded']),
  action: z.enum(['restore', 'delete', 'recreate', 'none']),
  diff: z.string(),
});
export type CheckpointFileView = z.infer<typeof checkpointFileSchema>;
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
/** One rules file as the chips above the composer show it. */
export const ruleChipSchema = z.object({
  id: z.string(),
  kind: z.enum(['agents', 'copilot', 'rules', 'nested']),
  /** Cut to the size limit: the warning names the file. */
  truncated: z.boolean(),
});
export type RuleChip = z.infer<typeof ruleChipSchema>;

/** Strings the webview shows, localised by the host (`vscode.l10n`), keyed by English id. */
export const stringsSchema = z.record(z.string(), z.string());

// ---------------------------------------------------------------------------------------------
// Host -> webview

export const hostMessageSchema = z.discriminatedUnion('type', [
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
  z.object({ type: z.literal('history/list'), entries: z.array(historyEntrySchema), activeId: z.string() }),
  z.object({
    type: z.literal('models/list'),
    models: z.array(modelInfoSchema),
    error: z.optional(errorViewSchema),
    loading: z.boolean(),
  }),
  z.object({
    type: z.literal('images/picked'),
    images: z.array(imageAttachmentSchema),
    problems: z.array(z.string()),
  }),
  z.object({ type: z.literal('chat/context'), context: editorContextSchema, prompt: z.optional(z.string()) }),
  z.object({ type: z.literal('chat/notice'), level: z.enum(['info', 'warning', 'error']), text: z.string() }),
  z.object({ type: z.literal('tools/call'), update: toolCallUpdateSchema }),
  /** The video task a tool call started, sent on every change of it (and in the ready state). */
  z.object({ type: z.literal('tools/videoTask'), callId: id, task: galleryTaskSchema }),
  z.object({ type: z.literal('tools/list'), tools: z.array(toolInfoSchema), choice: toolChoiceSettingSchema }),
  z.object({ type: z.literal('chat/focus') }),
  /** The shown conversation's answers with checkpoints (sent on every change of them). */
  z.object({ type: z.literal('checkpoints/list'), conversationId: id, answers: z.array(checkpointSummarySchema) }),
  /** What Restore would do for an answer (files undefined: the panel closes). */
  z.object({ type: z.literal('checkpoints/plan'), answerId: id, files: z.optional(z.array(checkpointFileSchema)) }),
  /** The picker's rows for one query (`queryId` echoes the webview's). */
  z.object({
    type: z.literal('mentions/results'),
    queryId: id,
    items: z.array(mentionItemSchema),
    note: z.optional(z.string()),
  }),
  /** Chips to add to the composer (Add File to Chat, a drop from the explorer). */
  z.object({ type: z.literal('mentions/add'), items: z.array(mentionItemSchema), problems: z.array(z.string()) }),
  z.object({ type: z.literal('context/meter'), meter: contextMeterSchema }),
  z.object({ type: z.literal('context/compacted'), conversationId: id, compaction: z.optional(compactionSchema) }),
  /** The rules files found; `blocked`: an untrusted workspace whose rules the user has not allowed. */
  z.object({
    type: z.literal('prompt/rules'),
    rules: z.array(ruleChipSchema),
    blocked: z.boolean(),
    warnings: z.array(z.string()),
  }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Webview -> host

/** What a tool card may do with the video its call saved. */
export const VIDEO_CARD_ACTIONS = ['open', 'reveal', 'openExternal'] as const;
export type VideoCardAction = (typeof VIDEO_CARD_ACTIONS)[number];

const requestId = z.string().check(z.minLength(1), z.maxLength(100));

export const webviewMessageSchema = z.discriminatedUnion('type', [
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
  z.object({ type: z.literal('history/export') }),
  z.object({ type: z.literal('chat/setModel'), model: z.string().check(z.maxLength(200)) }),
  z.object({
    type: z.literal('chat/setParams'),
    params: paramOverridesSchema,
    systemPrompt: z.optional(z.nullable(z.string().check(z.maxLength(100_000)))),
  }),
  z.object({ type: z.literal('images/pick') }),
  z.object({ type: z.literal('images/rejected'), name: z.string(), reason: z.string() }),
  z.object({ type: z.literal('history/list') }),
  z.object({ type: z.literal('history/open'), conversationId: id }),
  z.object({
    type: z.literal('history/rename'),
    conversationId: id,
    title: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
  z.object({ type: z.literal('history/delete'), conversationId: id }),
  z.object({ type: z.literal('models/refresh') }),
  z.object({ type: z.literal('code/copy'), code: z.string() }),
  z.object({ type: z.literal('code/insert'), code: z.string(), language: z.string().check(z.maxLength(100)) }),
  z.object({ type: z.literal('code/open'), code: z.string(), language: z.string().check(z.maxLength(100)) }),
  z.object({ type: z.literal('message/copy'), messageId: id }),
  z.object({ type: z.literal('link/open'), href: z.string().check(z.maxLength(10_000)) }),
  z.object({ type: z.literal('error/action'), action: errorActionSchema, requestId: z.optional(z.string()) }),
  z.object({
    type: z.literal('tools/decide'),
    callId: z.string().check(z.minLength(1)),
    decision: toolDecisionSchema,
  }),
  z.object({ type: z.literal('tools/videoAction'), callId: id, action: z.enum(VIDEO_CARD_ACTIONS) }),
  z.object({ type: z.literal('tools/setEnabled'), name: z.string(), enabled: z.boolean() }),
  z.object({ type: z.literal('tools/setTrusted'), name: z.string(), trusted: z.boolean() }),
  z.object({ type: z.literal('tools/setChoice'), choice: toolChoiceSettingSchema }),
  z.object({ type: z.literal('checkpoints/preview'), answerId: id }),
  z.object({ type: z.literal('checkpoints/diff'), answerId: id, path: z.string().check(z.maxLength(4096)) }),
  z.object({ type: z.literal('checkpoints/cancel'), answerId: id }),
  z.object({
    type: z.literal('checkpoints/restore'),
    answerId: id,
    /** Files changed since that the user chose to overwrite (absolute paths); others are skipped. */
    overwrite: z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(10_000)),
    /** Also remove this answer and everything after it from the conversation. */
    cut: z.boolean(),
  }),
  z.object({ type: z.literal('mentions/query'), queryId: id, query: z.string().check(z.maxLength(500)) }),
  /** Files dropped on the composer (VS Code's explorer gives URIs). */
  z.object({
    type: z.literal('mentions/drop'),
    uris: z.array(z.string().check(z.maxLength(4000))).check(z.maxLength(50)),
  }),
  z.object({ type: z.literal('context/compact') }),
  z.object({ type: z.literal('context/toolMode'), mode: toolModeSchema }),
  // The system prompt and rules (chips above the composer)
  z.object({ type: z.literal('prompt/setRuleEnabled'), id: z.string().check(z.maxLength(2000)), enabled: z.boolean() }),
  z.object({ type: z.literal('prompt/openRule'), id: z.string().check(z.maxLength(2000)) }),
  z.object({ type: z.literal('prompt/allowUntrustedRules') }),
  z.object({ type: z.literal('prompt/show') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** Validates an incoming host message; returns undefined (never throws) when it does not match. */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  const r = hostMessageSchema.safeParse(data);
  return r.success ? r.data : undefined;
}

/** Validates an incoming webview message; on failure returns the first problem for the log. */
export function parseWebviewMessage(
  data: unknown,
): { ok: true; message: WebviewMessage } | { ok: false; problem: string } {
  const r = webviewMessageSchema.safeParse(data);
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  const type =
    typeof data === 'object' && data !== null && 'type' in data ? String((data as { type: unknown }).type) : '?';
  return {
    ok: false,
    problem: `message "${type.slice(0, 60)}": ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`,
  };
}

export { newId } from '../ids';
