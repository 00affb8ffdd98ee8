// VS Code's language-model messages -> the gateway's chat request (spec 2.1), without `vscode`.
// The parts are recognised in ./parts.
import * as l10n from '@vscode/l10n';
import type {
  AssistantMessage,
  ChatMessage,
  ChatRequest,
  ContentPart,
  ToolCall,
  ToolDefinition,
} from '../../../api/chat/wire';
import { GatewayError } from '../../../api/transport/errors';
import {
  classifyPart,
  describePart,
  imageDataUrl,
  isImageMime,
  isTextMime,
  LM_ROLE,
  promptTsxText,
  rec,
  utf8,
  type LmMessageLike,
  type LmPart,
  type LmToolLike,
} from './parts';
import type { LmCallRef } from '../../answer/core/reasoningMemory';

/** What the conversion needs to know about the model and the conversation so far. */
export interface ConvertOptions {
  /** The model accepts image parts (its record lists the image capability). */
  acceptsImages: boolean;
  /**
   * `reasoning_content` the model gave with a tool call earlier (DeepSeek-style models need it
   * back), looked up by the call: its id alone is not enough (see {@link ReasoningMemory}).
   */
  reasoningFor?: (callId: string, call: LmCallRef) => string | undefined;
  /** The model's id, for error messages. */
  modelId?: string;
}

/** The converted messages and what was left out on the way (for the log). */
export interface Converted {
  messages: ChatMessage[];
  /** Image parts sent. */
  images: number;
  /** One line per part that has no equivalent on the wire (e.g. Copilot's `cache_control` markers). */
  dropped: string[];
}

function fail(field: string, message: string): never {
  throw new GatewayError('validation', message, { field });
}

/** The text a tool result gives the model; images go in `images` when the model can see them. */
function toolResultText(
  content: ReadonlyArray<unknown>,
  where: string,
  o: ConvertOptions,
  images: ContentPart[],
  dropped: string[],
): string {
  let text = '';
  content.forEach((c, k) => {
    const part = classifyPart(c);
    if (part.kind === 'text') {
      text += part.text;
    } else if (part.kind === 'data' && isTextMime(part.mimeType)) {
      text += utf8(part.data);
    } else if (part.kind === 'data' && isImageMime(part.mimeType)) {
      if (o.acceptsImages) {
        images.push({ type: 'image_url', image_url: { url: imageDataUrl(part.mimeType, part.data) } });
        text += l10n.t('[image {0}, attached in the next message]', part.mimeType);
      } else {
        text += l10n.t(
          '[image {0} of {1} bytes left out: the model does not accept images]',
          part.mimeType,
          part.data.byteLength,
        );
      }
    } else if (part.kind === 'data') {
      dropped.push(`${where}.content[${k}]: data part of type ${part.mimeType}`);
    } else if (part.kind === 'unknown') {
      // LanguageModelPromptTsxPart: `{ value: { node: … } }`.
      const t = promptTsxText(rec(c)?.value);
      if (t) text += t;
      else dropped.push(`${where}.content[${k}]: ${part.what}`);
    } else {
      dropped.push(`${where}.content[${k}]: ${describePart(part)}`);
    }
  });
  return text;
}

/**
 * Converts VS Code's request messages to the gateway's messages. A user message's tool results
 * become `tool` messages (first, so that they directly follow the assistant's calls, as the wire
 * protocol requires), its text and images one user message after them; an assistant message's
 * tool calls become `tool_calls` with their ids kept. Images need a model that accepts them.
 * Throws `GatewayError('validation')` naming the message for what cannot be sent.
 */
export function toGatewayMessages(input: ReadonlyArray<LmMessageLike>, o: ConvertOptions): Converted {
  const out: Converted = { messages: [], images: 0, dropped: [] };
  input.forEach((m, i) => {
    const where = `messages[${i}]`;
    const parts = (Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [m.content] : []).map(
      classifyPart,
    );
    const name = typeof m.name === 'string' && m.name.trim() !== '' ? { name: m.name } : {};
    if (m.role === LM_ROLE.assistant) {
      const msg = assistantMessage(parts, where, name, o, out.dropped);
      if (msg) out.messages.push(msg);
      return;
    }
    if (m.role !== LM_ROLE.user && m.role !== LM_ROLE.system) {
      fail(
        `${where}.role`,
        l10n.t('{0} has role {1}; only user (1), assistant (2) and system (3) exist.', where, String(m.role)),
      );
    }
    const system = m.role === LM_ROLE.system;
    const { content, resultImages } = userParts(parts, where, system, o, out);
    // Images a tool returned travel in a user message of their own: tool messages are text only.
    const all = [...resultImages, ...content];
    if (all.length === 0) return;
    out.images += all.filter((c) => c.type === 'image_url').length;
    if (system) {
      out.messages.push({
        role: 'system',
        content: all.map((c) => (c.type === 'text' ? c.text : '')).join(''),
        ...name,
      });
    } else {
      const onlyText = all.every((c) => c.type === 'text');
      // A single text part stays a plain string: the form every server accepts.
      out.messages.push({
        role: 'user',
        content: onlyText && all.length === 1 ? (all[0] as { text: string }).text : all,
        ...name,
      });
    }
  });
  return out;
}

/** An assistant message's text, reasoning and tool calls (ids kept); undefined when it has none. */
function assistantMessage(
  parts: LmPart[],
  where: string,
  name: { name?: string },
  o: ConvertOptions,
  dropped: string[],
): AssistantMessage | undefined {
  let text = '';
  let reasoning = '';
  const calls: ToolCall[] = [];
  const refs: LmCallRef[] = [];
  parts.forEach((p, j) => {
    if (p.kind === 'text') text += p.text;
    else if (p.kind === 'thinking') reasoning += p.text;
    else if (p.kind === 'toolCall') {
      if (p.callId === '')
        fail(`${where}.content[${j}].callId`, l10n.t('{0}: a tool call part has an empty callId.', where));
      calls.push({
        id: p.callId,
        type: 'function',
        function: { name: p.name, arguments: JSON.stringify(p.input ?? {}) },
      });
      refs.push({ callId: p.callId, name: p.name, input: p.input });
    } else if (p.kind === 'toolResult') {
      fail(
        `${where}.content[${j}]`,
        l10n.t(
          '{0}: a tool result belongs in a user message, after the assistant message that called the tool.',
          where,
        ),
      );
    } else if (p.kind === 'data' && isTextMime(p.mimeType)) {
      text += utf8(p.data);
    } else {
      dropped.push(`${where}.content[${j}]: ${describePart(p)}`);
    }
  });
  if (calls.length === 0 && text === '') {
    dropped.push(`${where}: an empty assistant message`);
    return undefined;
  }
  const msg: AssistantMessage = {
    role: 'assistant',
    content: calls.length > 0 && text === '' ? null : text,
    ...name,
  };
  if (calls.length > 0) {
    msg.tool_calls = calls;
    const remembered =
      reasoning || refs.map((c) => o.reasoningFor?.(c.callId, c)).find((r) => r !== undefined && r !== '');
    if (remembered) msg.reasoning_content = remembered;
  }
  return msg;
}

/** A user or system message's content; its tool results go out at once as `tool` messages, their images apart. */
function userParts(
  parts: LmPart[],
  where: string,
  system: boolean,
  o: ConvertOptions,
  out: Converted,
): { content: ContentPart[]; resultImages: ContentPart[] } {
  const content: ContentPart[] = [];
  const resultImages: ContentPart[] = [];
  parts.forEach((p, j) => {
    const pw = `${where}.content[${j}]`;
    switch (p.kind) {
      case 'text':
        if (p.text !== '') content.push({ type: 'text', text: p.text });
        return;
      case 'toolResult':
        if (system) fail(pw, l10n.t('{0}: a tool result belongs in a user message.', where));
        if (p.callId === '') fail(`${pw}.callId`, l10n.t('{0}: a tool result part has an empty callId.', where));
        out.messages.push({
          role: 'tool',
          tool_call_id: p.callId,
          content: toolResultText(p.content, pw, o, resultImages, out.dropped),
        });
        return;
      case 'toolCall':
        return fail(pw, l10n.t('{0}: a tool call belongs in an assistant message.', where));
      case 'data':
        return dataPart(p, pw, where, system, o, content, out.dropped);
      case 'thinking':
        out.dropped.push(`${pw}: thinking part`);
        return;
      case 'unknown':
        out.dropped.push(`${pw}: ${p.what}`);
        return;
    }
  });
  return { content, resultImages };
}

/** A data part of a user or system message: text as text, an image when the model takes images. */
function dataPart(
  p: Extract<LmPart, { kind: 'data' }>,
  pw: string,
  where: string,
  system: boolean,
  o: ConvertOptions,
  content: ContentPart[],
  dropped: string[],
): void {
  if (isTextMime(p.mimeType)) {
    content.push({ type: 'text', text: utf8(p.data) });
  } else if (isImageMime(p.mimeType) && !system) {
    if (!o.acceptsImages) {
      fail(
        pw,
        l10n.t(
          '{0} contains an image, but the model {1} does not accept images. Choose a model with image input (vision).',
          where,
          o.modelId ?? '',
        ),
      );
    }
    if (p.data.byteLength === 0) fail(pw, l10n.t('{0} contains an empty image.', where));
    content.push({ type: 'image_url', image_url: { url: imageDataUrl(p.mimeType, p.data) } });
  } else {
    dropped.push(`${pw}: data part of type ${p.mimeType}`);
  }
}

/**
 * Every tool-call id a request's messages use (calls and the results that answer them), so that
 * the calls of the new answer can be given ids no earlier turn has.
 */
export function callIdsIn(input: ReadonlyArray<LmMessageLike>): Set<string> {
  const ids = new Set<string>();
  for (const m of input) {
    for (const raw of Array.isArray(m.content) ? m.content : []) {
      const p = classifyPart(raw);
      if (p.kind === 'toolCall' || p.kind === 'toolResult') ids.add(p.callId);
    }
  }
  return ids;
}

/** VS Code's tools as the spec's `tools`; a tool without a schema takes an empty object. */
export function toGatewayTools(tools: ReadonlyArray<LmToolLike> | undefined): ToolDefinition[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      parameters: (t.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    },
  }));
}

/** Sampling options a caller may pass in `modelOptions`, under their spec 2.1 names (camelCase accepted). */
const NUMERIC_OPTIONS: ReadonlyArray<[keyof ChatRequest, string[]]> = [
  ['temperature', ['temperature']],
  ['top_p', ['top_p', 'topP']],
  ['max_tokens', ['max_tokens', 'maxTokens', 'max_completion_tokens']],
  ['presence_penalty', ['presence_penalty', 'presencePenalty']],
  ['frequency_penalty', ['frequency_penalty', 'frequencyPenalty']],
];

/** What {@link buildLmRequest} needs besides the messages. */
export interface LmRequestOptions extends ConvertOptions {
  modelId: string;
  tools?: ReadonlyArray<LmToolLike>;
  /** `LanguageModelChatToolMode`: 1 auto, 2 required. */
  toolMode?: number;
  /** `modelOptions` of the request: a validated boundary, anything may be in it. */
  modelOptions?: Readonly<Record<string, unknown>>;
}

/**
 * The whole chat request for one `provideLanguageModelChatResponse`: messages, tools, the tool
 * mode (Required -> the one offered tool by name, or `tool_choice: "required"` with several) and
 * the sampling options found in `modelOptions` (others are reported in `dropped`). Ranges are
 * checked later by `validateChatRequest`.
 */
export function buildLmRequest(
  input: ReadonlyArray<LmMessageLike>,
  o: LmRequestOptions,
): { request: ChatRequest; images: number; dropped: string[] } {
  const { messages, images, dropped } = toGatewayMessages(input, o);
  const request: ChatRequest = { model: o.modelId, messages };
  const tools = toGatewayTools(o.tools);
  if (tools) {
    request.tools = tools;
    // Required: spec 2.1 lists only auto, none or a specific tool object. With one tool offered,
    // naming it says exactly "call a tool"; with several only the common "required" can, and
    // answerLmRequest falls back to auto if the gateway refuses it.
    if (o.toolMode === 2)
      request.tool_choice =
        tools.length === 1 && tools[0] ? { type: 'function', function: { name: tools[0].function.name } } : 'required';
  }
  const mo = o.modelOptions ?? {};
  const used = new Set<string>();
  for (const [key, names] of NUMERIC_OPTIONS) {
    for (const n of names) {
      const v = mo[n];
      if (v === undefined || v === null) continue;
      used.add(n);
      if (typeof v !== 'number') fail(`modelOptions.${n}`, l10n.t('modelOptions.{0} must be a number.', n));
      (request as unknown as Record<string, unknown>)[key] = v;
      break;
    }
  }
  const stop = mo.stop;
  if (stop !== undefined && stop !== null) {
    used.add('stop');
    if (typeof stop !== 'string' && !(Array.isArray(stop) && stop.every((s) => typeof s === 'string'))) {
      fail('modelOptions.stop', l10n.t('modelOptions.stop must be a string or an array of strings.'));
    }
    request.stop = stop;
  }
  for (const k of Object.keys(mo)) if (!used.has(k) && mo[k] !== undefined) dropped.push(`modelOptions.${k}`);
  return { request, images, dropped };
}

/**
 * Parses a tool call's arguments into the object `LanguageModelToolCallPart` needs. Empty text is
 * `{}` (a call without parameters); anything that is not a JSON object is refused with a message
 * naming the tool, since running a tool on guessed input could do the wrong thing.
 */
export function parseToolArguments(name: string, args: string): object {
  if (args.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(args);
  } catch (e) {
    throw new GatewayError(
      'invalid_response',
      l10n.t(
        'The model called the tool "{0}" with arguments that are not valid JSON ({1}): {2}.',
        name,
        e instanceof Error ? e.message : String(e),
        JSON.stringify(args.slice(0, 200)),
      ),
      { advice: 'brokenToolCall' },
    );
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new GatewayError(
      'invalid_response',
      l10n.t(
        'The model called the tool "{0}" with arguments that are not a JSON object: {1}.',
        name,
        JSON.stringify(args.slice(0, 200)),
      ),
      { advice: 'brokenToolCall' },
    );
  }
  return v;
}
