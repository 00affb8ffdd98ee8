/**
 * The gateway's wire vocabulary (spec 2.1, 2.2): the chat request, its messages and content
 * parts, tools, tool calls and their answers, usage, the result of a call and the events of a
 * streamed one. Every layer uses these names; this module holds types only (the answer's come
 * from transport/answer.ts, below every resource), so anything may import it without pulling in code.
 */

import type { ChatResult, EncryptedReasoning, ToolCall, Usage } from '../transport/answer';

export type { ChatResult, EncryptedReasoning, ReasoningItem, ToolCall, Usage } from '../transport/answer';

/** A text part of multimodal content (spec 2.1). */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image part: a public HTTPS URL or a complete `data:image/...;base64,` URL. */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ContentPart = TextPart | ImagePart;

export interface SystemMessage {
  role: 'system';
  content: string | TextPart[];
  name?: string;
}
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  name?: string;
}
/**
 * `reasoning_content` must be sent back on tool-call turns: DeepSeek-style models reject the next
 * request without it.
 */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  reasoning_content?: string;
  /**
   * Not a wire field: the encrypted reasoning a Responses answer came with, kept by a caller that
   * stores the answer (the chat's history) and sent back before it as `reasoning` items. Chat
   * completions never sees it (`ModelRouter.chatBody` drops it).
   */
  encrypted_reasoning?: EncryptedReasoning;
}

/** The answer to one call; `tool_call_id` must equal the `id` of exactly one call of the turn. */
export interface ToolMessage {
  role: 'tool';
  content: string;
  tool_call_id: string;
  name?: string;
  /**
   * Not a wire field: images the tool returned (an MCP server's). Chat completions' tool messages
   * carry text only, so the chat sends them in a user message after the turn's tool messages.
   */
  images?: ImagePart[];
}
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool the model may call (spec 2.1: only `function` exists); `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** `auto` (the gateway's default), `none`, `required` (not in spec 2.1; some gateways refuse it), or one named tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; json_schema: Record<string, unknown> };

/** The chat request body of spec 2.1. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string | string[];
  presence_penalty?: number;
  frequency_penalty?: number;
  response_format?: ResponseFormat;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  user?: string;
  /**
   * Not a wire field: the editor's state at this request (date, active file, open editors), which
   * changes from one request to the next. The client places it after the conversation
   * (chat/promptCache.ts), so everything before it stays a cacheable prefix.
   */
  environment?: string;
  /** Not a wire field: one conversation's key, sent as `prompt_cache_key` to models that take it. */
  cacheKey?: string;
}

/**
 * What a streaming chat call reports as it goes. `index` of a tool call is its position in the final
 * `tool_calls`; its `id` is the wire id as sent (the result's id may differ: ids are made unique there).
 */
export type ChatStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'model'; model: string }
  | { type: 'finish'; reason: string }
  | { type: 'retry'; attempt: number; delayMs: number; message: string };

/** Options of a streaming chat call. */
export interface StreamOptions {
  signal?: AbortSignal;
  onEvent?: (e: ChatStreamEvent) => void;
}

/**
 * The part of `GatewayClient` that answers chat requests: what the chat's turns and the language
 * model provider need (tests may pass any object with these methods).
 */
export interface ChatBackend {
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  streamChat(req: ChatRequest, o: StreamOptions): Promise<ChatResult>;
}
