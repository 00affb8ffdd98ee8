// One answer of the language-model provider, streamed or not, without `vscode`.
import type { ChatStreamEvent } from '../../api/accumulator';
import type { ChatRequest, ChatResult } from '../../api/chat';

/** The part of `GatewayClient` an answer needs (tests may pass any object with these methods). */
export interface LmChatBackend {
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  streamChat(req: ChatRequest, o: { signal?: AbortSignal; onEvent?: (e: ChatStreamEvent) => void }): Promise<ChatResult>;
}

/**
 * Sends `request` streamed, or, when the user turned streaming off (`gatewayStudio.chat.stream`:
 * for gateways or models that cannot stream), as one non-streaming request whose text is reported
 * in one piece once it arrived. Either way `onEvent` sees the answer's text and the result carries
 * its tool calls.
 */
export async function answerLmRequest(
  backend: LmChatBackend,
  request: ChatRequest,
  o: { stream: boolean; signal?: AbortSignal; onEvent: (e: ChatStreamEvent) => void },
): Promise<ChatResult> {
  if (o.stream) return backend.streamChat(request, { signal: o.signal, onEvent: o.onEvent });
  const result = await backend.chat(request, o.signal);
  if (result.message.content) o.onEvent({ type: 'text', text: result.message.content });
  return result;
}
