import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import type {
  ChatMessage as WireMessage,
  ChatRequest,
  ContentPart,
  ToolChoice,
  ToolDefinition,
} from '../../../api/chat/wire';
import {
  chatParamsSchema,
  type ChatParams,
  type Conversation,
  type EditorContext,
  type ToolResultMessage,
  type UserMessage,
} from '../../../shared/protocol';
import { formatAttachment } from './attachments';
import { toolImagesMessage } from './toolImages';
import { fenced } from '../../../shared/fence';
import { effectiveModel as sharedEffectiveModel } from '../../../shared/model';
import { reasoningToReplay } from './encryptedReasoning';

/** Everything a request is built from besides the conversation. */
export interface RequestDefaults {
  /** `gatewayStudio.chatModel`. */
  model: string;
  /** `gatewayStudio.chat.systemPrompt` from the user's own settings (a workspace's is a rules entry). */
  systemPrompt: string;
  /** The chat parameters of the settings (spec 2.1). */
  params: ChatParams;
  /**
   * The system message around the user's prompt from the last snapshot taken, for estimates that
   * cannot wait for a new one (the context meter); a request's own `BuildOptions.system` wins.
   */
  system?: (userPrompt: string) => string;
  /** The model of this turn, over the conversation's (an agent's model: `chat/agents`). */
  turnModel?: string;
  /** The agent answering this turn, stored on its answers. */
  agent?: string;
}

export interface BuildOptions {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  /** Builds the whole system message around the user's own prompt (see systemPrompt.ts). */
  system?: (userPrompt: string) => string;
  /** The editor's state now (systemPrompt.ts `editorStateNote`): sent after the conversation. */
  environment?: string;
}

/** A setting or override out of range: named, so the user knows what to fix. */
export class RequestProblem extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'RequestProblem';
  }
}

/** The settings' parameters overridden by the conversation's, validated against spec 2.1 / 8. */
export function effectiveParams(c: Conversation, defaults: ChatParams): ChatParams {
  const merged = { ...defaults, ...stripUndefined(c.params) };
  const r = chatParamsSchema.safeParse(merged);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.join('.') ?? '?';
    const fromConversation = issue?.path[0] !== undefined && String(issue.path[0]) in c.params;
    const value = JSON.stringify(valueAt(merged, field)) ?? 'undefined';
    const why = issue?.message ?? 'invalid';
    throw new RequestProblem(
      fromConversation
        ? l10n.t("{0} in this conversation's settings is not valid: {1} (it is {2}).", field, why, value)
        : l10n.t(
            '{0} in the setting gatewayStudio.chat.{1} is not valid: {2} (it is {3}).',
            field,
            settingName(field),
            why,
            value,
          ),
      field,
    );
  }
  return r.data;
}

/**
 * The model the conversation uses: its own, else the setting. The one place this is worked out:
 * the request, the meter, compaction, the tool mode and the mentions all ask it.
 */
export function effectiveModel(
  c: Pick<Conversation, 'model'>,
  defaults: Pick<RequestDefaults, 'model' | 'turnModel'>,
): string {
  return defaults.turnModel?.trim() || sharedEffectiveModel(c.model, defaults.model);
}

/**
 * Turns the stored conversation into the wire request of spec 2.1. Keeps the protocol's rules:
 * images become `image_url` parts with their complete data URLs, editor context is quoted into
 * the user text, assistant tool calls keep `reasoning_content` (DeepSeek-style models reject the
 * next turn without it), and every tool call is answered exactly once (a call the user stopped
 * before it ran gets a tool message saying so, because the gateway rejects unanswered calls).
 * Failed answers with nothing in them are left out.
 */
export function buildChatRequest(c: Conversation, defaults: RequestDefaults, o: BuildOptions = {}): ChatRequest {
  const params = effectiveParams(c, defaults.params);
  const model = effectiveModel(c, defaults);
  if (!model) {
    throw new RequestProblem(
      l10n.t("No chat model is chosen: pick one in the chat's model box or set gatewayStudio.chatModel."),
      'model',
    );
  }
  const messages: WireMessage[] = [];
  const own = (c.systemPrompt ?? defaults.systemPrompt).trim();
  const compose = o.system ?? defaults.system;
  const system = compose ? compose(own) : own;
  if (system) messages.push({ role: 'system', content: system });

  let open: string[] = [];
  let answered: ToolResultMessage[] = [];
  // After a turn's tool messages: the stopped calls' answers, then the images its tools returned.
  const closeOpen = () => {
    for (const id of open)
      messages.push({ role: 'tool', tool_call_id: id, content: 'The user stopped this tool call before it ran.' });
    const images = toolImagesMessage(answered);
    if (images) messages.push(images);
    open = [];
    answered = [];
  };
  for (const m of c.messages) {
    if (m.role === 'user') {
      closeOpen();
      messages.push({ role: 'user', content: userContent(m) });
    } else if (m.role === 'assistant') {
      closeOpen();
      if (m.status === 'streaming') continue;
      const calls = m.toolCalls ?? [];
      if (!m.content && calls.length === 0) continue;
      const replay = reasoningToReplay(c, m);
      if (calls.length > 0) {
        messages.push({
          role: 'assistant',
          content: m.content || null,
          tool_calls: calls,
          ...(m.reasoning ? { reasoning_content: m.reasoning } : {}),
          ...(replay ? { encrypted_reasoning: replay } : {}),
        });
        open = calls.map((x) => x.id);
      } else {
        messages.push({
          role: 'assistant',
          content: m.content,
          ...(replay ? { encrypted_reasoning: replay } : {}),
        });
      }
    } else {
      if (!open.includes(m.toolCallId)) continue;
      open = open.filter((x) => x !== m.toolCallId);
      messages.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
      answered.push(m);
    }
  }
  closeOpen();

  const req: ChatRequest = { model, messages, stream: params.stream };
  if (params.temperature !== null) req.temperature = params.temperature;
  if (params.top_p !== null) req.top_p = params.top_p;
  if (params.max_tokens !== null) req.max_tokens = params.max_tokens;
  if (params.stop.length > 0) req.stop = params.stop;
  if (params.presence_penalty !== null) req.presence_penalty = params.presence_penalty;
  if (params.frequency_penalty !== null) req.frequency_penalty = params.frequency_penalty;
  if (params.response_format === 'json_object') req.response_format = { type: 'json_object' };
  if (params.user.trim()) req.user = params.user.trim();
  if (o.tools && o.tools.length > 0) {
    req.tools = o.tools;
    if (o.toolChoice !== undefined) req.tool_choice = o.toolChoice;
  }
  if (o.environment) req.environment = o.environment;
  // One key per conversation (for models that take `prompt_cache_key`): its id, hashed so the
  // relay learns nothing from it but that two requests belong together.
  req.cacheKey = `gws-${createHash('sha256').update(c.id).digest('hex').slice(0, 32)}`;
  return req;
}

/**
 * Text plus editor context; with images, an array of parts (text first, then each image).
 * @-mention attachments come before the user's words, each a labelled block, so the question is
 * the last thing the model reads.
 */
export function userContent(m: UserMessage): string | ContentPart[] {
  const attached = (m.attachments ?? []).map(formatAttachment);
  const text = [...attached, m.text, ...m.contexts.map(formatContext)].filter((s) => s.trim() !== '').join('\n\n');
  if (m.images.length === 0) return text;
  const parts: ContentPart[] = [];
  if (text) parts.push({ type: 'text', text });
  for (const img of m.images) parts.push({ type: 'image_url', image_url: { url: img.dataUrl } });
  return parts;
}

/** Quotes a selection with its file and language, in a fence longer than any inside it. */
export function formatContext(ctx: EditorContext): string {
  const lines = ctx.startLine !== undefined ? `, lines ${ctx.startLine + 1}-${(ctx.endLine ?? ctx.startLine) + 1}` : '';
  return `From ${ctx.fileName} (${ctx.language}${lines}):\n${fenced(ctx.text, ctx.language)}`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function settingName(field: string): string {
  const map: Record<string, string> = {
    top_p: 'topP',
    max_tokens: 'maxTokens',
    presence_penalty: 'presencePenalty',
    frequency_penalty: 'frequencyPenalty',
    response_format: 'responseFormat',
  };
  const head = field.split('.')[0] ?? field;
  return map[head] ?? head;
}

function valueAt(o: Record<string, unknown>, path: string): unknown {
  return o[path.split('.')[0] ?? path];
}
