// The gateway client's public surface. Video modules are exported by their own files.
export { ChatAccumulator, chunkSchema, usageSchema, type ChatChunk, type ChatStreamEvent } from './accumulator';
export { isLoopbackHost, normaliseBaseUrl, resolveAgainstBase } from './baseUrl';
export {
  CHAT_LIMITS,
  validateChatRequest,
  type AssistantMessage,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type ContentPart,
  type ImagePart,
  type ResponseFormat,
  type SystemMessage,
  type TextPart,
  type Tool,
  type ToolCall,
  type ToolChoice,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from './chat';
export { GatewayClient, type StreamOptions } from './client';
export {
  GatewayError,
  describeError,
  errorFromHttp,
  isGatewayError,
  isRetryableStatus,
  notFoundCause,
  readWireError,
  type ErrorAction,
  type ErrorDescription,
  type GatewayErrorInit,
  type GatewayErrorKind,
  type WireError,
} from './errors';
export { HttpClient, parseJson, retryDelayMs, sleep, type HttpOptions, type LogLevel, type RequestOptions } from './http';
export { acceptsImages, isVideoModel, modelRecordSchema, parseModelList, type ModelRecord } from './models';
export { bytesOf, parseSse, type SseEvent } from './sse';
