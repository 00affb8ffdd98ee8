/**
 * How the chat views and the capabilities talk: each capability's VS Code side declares the
 * webview messages it handles as {@link Routes}, and the session speaks to the views through a
 * {@link SessionSink} (the panel's hub). Kept below every capability so that none imports another
 * one's files to plug in.
 */
import type { HostMessage, ReplyTo, WebviewMessage } from '../../../shared/protocol';

/** Answers the webview that sent the message being handled, and only it. */
export type Reply = (msg: HostMessage) => void;

/** Handles one type of webview message; `reply` takes only the answer paired with `T`. */
export type Handler<T extends WebviewMessage['type']> = (
  m: Extract<WebviewMessage, { type: T }>,
  reply: (msg: ReplyTo<T>) => void,
) => void | Promise<void>;

/**
 * The webview messages one capability handles, by type: each capability's VS Code side declares
 * its own, and the controller puts them together into one table that must cover every type.
 */
export type Routes<T extends WebviewMessage['type']> = { readonly [K in T]: Handler<K> };

/** Hands `m` to the handler of its type. */
export function route<T extends WebviewMessage['type']>(
  table: Routes<T>,
  m: Extract<WebviewMessage, { type: T }>,
  reply: Reply,
): void | Promise<void> {
  // The table pairs each type with its own handler; TypeScript cannot follow that through `m.type`.
  const handler = table[m.type as T] as Handler<T>;
  return handler(m, reply);
}

/** Where the session's messages for the chat views go (the webview hub). */
export interface SessionSink {
  /** To every chat view; anything streamed before it is delivered first. */
  broadcast(msg: HostMessage): void;
  /** Text or reasoning that arrived for a streaming answer; the sink may batch it. */
  delta(requestId: string, messageId: string, d: { content?: string; reasoning?: string }): void;
}
