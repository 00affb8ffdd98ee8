// VS Code's language-model messages -> the gateway's chat request (spec 2.1), without `vscode`.
// The parts arrive as instances of the extension host's classes; they are recognised by shape
// rather than `instanceof` so that this runs (and is tested) in plain node, and so that parts
// newer than @types/vscode 1.104 (data, thinking) are handled too.
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import type { AssistantMessage, ChatMessage, ChatRequest, ContentPart, ToolCall, ToolDefinition } from '../../api/wire';
import { GatewayError } from '../../api/errors';

/** `LanguageModelChatMessageRole`: 1 user, 2 assistant, 3 system (System is newer than 1.104's types). */
export const LM_ROLE = { user: 1, assistant: 2, system: 3 } as const;

/** The shape of `LanguageModelChatRequestMessage`. */
export interface LmMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name?: string | undefined;
}

/** The shape of `LanguageModelChatTool`. */
export interface LmToolLike {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
}

/** One part of a message, recognised by its fields. */
export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; content: ReadonlyArray<unknown> }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  | { kind: 'thinking'; text: string }
  | { kind: 'unknown'; what: string };

function rec(p: unknown): Record<string, unknown> | undefined {
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : undefined;
}

/**
 * Classifies a part by the fields the extension host's classes set in their constructors:
 * tool call `{ callId, name, input }`, tool result `{ callId, content[] }`, data
 * `{ mimeType, data: Uint8Array }`, thinking `{ value, id, metadata }`, text `{ value: string }`.
 * A bare string counts as text (the host's own converters accept it too).
 */
export function classifyPart(p: unknown): LmPart {
  if (typeof p === 'string') return { kind: 'text', text: p };
  const r = rec(p);
  if (!r) return { kind: 'unknown', what: String(p) };
  if (typeof r.callId === 'string' && typeof r.name === 'string' && 'input' in r) {
    return { kind: 'toolCall', callId: r.callId, name: r.name, input: r.input };
  }
  if (typeof r.callId === 'string' && Array.isArray(r.content))
    return { kind: 'toolResult', callId: r.callId, content: r.content };
  if (typeof r.mimeType === 'string' && r.data instanceof Uint8Array)
    return { kind: 'data', mimeType: r.mimeType, data: r.data };
  if ('id' in r && 'metadata' in r && (typeof r.value === 'string' || Array.isArray(r.value))) {
    return {
      kind: 'thinking',
      text: Array.isArray(r.value) ? r.value.filter((v) => typeof v === 'string').join('') : (r.value as string),
    };
  }
  if (typeof r.value === 'string') return { kind: 'text', text: r.value };
  const ctor = (p as { constructor?: { name?: unknown } }).constructor?.name;
  return {
    kind: 'unknown',
    what: typeof ctor === 'string' && ctor !== 'Object' ? ctor : JSON.stringify(p).slice(0, 60),
  };
}

/** MIME types whose bytes are text a model can read as such. */
function isTextMime(mime: string): boolean {
  const m = mime.toLowerCase();
  return m.startsWith('text/') || m === 'application/json' || m.endsWith('+json') || m.endsWith('/x-json');
}

function isImageMime(mime: string): boolean {
  return /^image\/[a-z0-9.+-]+$/i.test(mime);
}

/** A complete `data:` URL, the form spec 2.1 accepts for image parts. */
export function imageDataUrl(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType.toLowerCase()};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

function utf8(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}

/**
 * Text of a prompt-tsx element (`LanguageModelPromptTsxPart.value`): without the library the tree
 * cannot be rendered, but its text nodes carry what the tool said.
 */
function promptTsxText(v: unknown, depth = 0): string {
  if (depth > 50) return '';
  if (typeof v === 'string') return '';
  if (Array.isArray(v)) return v.map((x) => promptTsxText(x, depth + 1)).join('');
  const r = rec(v);
  if (!r) return '';
  let out = typeof r.text === 'string' ? r.text : '';
  for (const [k, x] of Object.entries(r)) if (k !== 'text' && typeof x === 'object') out += promptTsxText(x, depth + 1);
  return out;
}

function describePart(p: LmPart): string {
  return p.kind === 'data' ? `data part of type ${p.mimeType}` : p.kind === 'unknown' ? p.what : `${p.kind} part`;
}

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
  const messages: ChatMessage[] = [];
  const dropped: string[] = [];
  let images = 0;
  input.forEach((m, i) => {
    const where = `messages[${i}]`;
    const parts = (Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [m.content] : []).map(
      classifyPart,
    );
    const name = typeof m.name === 'string' && m.name.trim() !== '' ? { name: m.name } : {};

    if (m.role === LM_ROLE.assistant) {
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
        return;
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
      messages.push(msg);
      return;
    }

    if (m.role !== LM_ROLE.user && m.role !== LM_ROLE.system) {
      fail(
        `${where}.role`,
        l10n.t('{0} has role {1}; only user (1), assistant (2) and system (3) exist.', where, String(m.role)),
      );
    }
    const system = m.role === LM_ROLE.system;
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
          messages.push({
            role: 'tool',
            tool_call_id: p.callId,
            content: toolResultText(p.content, pw, o, resultImages, dropped),
          });
          return;
        case 'toolCall':
          return fail(pw, l10n.t('{0}: a tool call belongs in an assistant message.', where));
        case 'data':
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
          return;
        case 'thinking':
          dropped.push(`${pw}: thinking part`);
          return;
        case 'unknown':
          dropped.push(`${pw}: ${p.what}`);
          return;
      }
    });
    // Images a tool returned travel in a user message of their own: tool messages are text only.
    const all = [...resultImages, ...content];
    if (all.length === 0) return;
    images += all.filter((c) => c.type === 'image_url').length;
    if (system) {
      messages.push({ role: 'system', content: all.map((c) => (c.type === 'text' ? c.text : '')).join(''), ...name });
    } else {
      const onlyText = all.every((c) => c.type === 'text');
      // A single text part stays a plain string: the form every server accepts.
      messages.push({
        role: 'user',
        content: onlyText && all.length === 1 ? (all[0] as { text: string }).text : all,
        ...name,
      });
    }
  });
  return { messages, images, dropped };
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
  const hint = l10n.t('The model produced a broken tool call; send the request again.');
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
      { hint },
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
      { hint },
    );
  }
  return v;
}

/** Tokens an image is counted as: about what a 1024x1024 picture costs at OpenAI's high detail. */
export const IMAGE_TOKENS = 765;
/** Fixed cost per message (role and separators), as OpenAI's cookbook counts it. */
const MESSAGE_TOKENS = 4;

/** The estimate: about four characters per token, which is close for English and code with GPT-style tokenizers. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Estimated tokens of a string or a message (chars / 4; images a flat {@link IMAGE_TOKENS}). The
 * gateway's tokenizers are not known to the client, so this is an estimate, not a count.
 */
export function estimateTokens(x: string | LmMessageLike): number {
  if (typeof x === 'string') return estimateTextTokens(x);
  let n = MESSAGE_TOKENS;
  const count = (parts: ReadonlyArray<unknown>): void => {
    for (const raw of parts) {
      const p = classifyPart(raw);
      if (p.kind === 'text' || p.kind === 'thinking') n += estimateTextTokens(p.text);
      else if (p.kind === 'toolCall') n += estimateTextTokens(p.name + JSON.stringify(p.input ?? {}));
      else if (p.kind === 'toolResult') count(p.content);
      else if (p.kind === 'data')
        n += isImageMime(p.mimeType) ? IMAGE_TOKENS : isTextMime(p.mimeType) ? estimateTextTokens(utf8(p.data)) : 0;
    }
  };
  count(Array.isArray(x.content) ? x.content : []);
  return n;
}

/** A tool call as the provider reported it (`LanguageModelToolCallPart` has these fields). */
export interface LmCallRef {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

function memoryKey(call: string | LmCallRef): string {
  if (typeof call === 'string') return call;
  // Hashed: arguments can be a whole file's content, and up to `limit` keys are kept.
  const digest = createHash('sha256')
    .update(`${call.name}\u0000${JSON.stringify(call.input ?? {})}`)
    .digest('base64');
  return `${call.callId}\u0000${digest}`;
}

/**
 * `reasoning_content` of recent tool-call turns. VS Code's messages have no field for it, yet
 * DeepSeek-style models reject a tool-call turn sent back without it (wire-quirks.md), so the
 * provider remembers it. Filed under the whole call (id, tool, arguments) when given one: relays
 * that number calls per answer give the first call of every conversation the id `call_0`, and by
 * id alone one conversation's reasoning would be sent back in another. Bounded: oldest go first.
 */
export class ReasoningMemory {
  private readonly map = new Map<string, string>();
  constructor(private readonly limit = 500) {}

  remember(calls: readonly (string | LmCallRef)[], reasoning: string | undefined): void {
    if (!reasoning) return;
    for (const call of calls) {
      const key = memoryKey(call);
      this.map.delete(key);
      this.map.set(key, reasoning);
    }
    while (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  get(call: string | LmCallRef): string | undefined {
    return this.map.get(memoryKey(call));
  }

  get size(): number {
    return this.map.size;
  }
}
