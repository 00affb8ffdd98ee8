/**
 * The host <-> chat webview protocol: one discriminated union per direction, keyed on `type`,
 * put together from one file per capability. A type's namespace names the capability that
 * handles it, the same in both directions (`tools/decide` in, `tools/call` out); `chat/` is the
 * conversation itself.
 *
 * Validation, for both webviews (this chat and the video gallery), is one rule:
 * - the host parses everything a webview sends against the schema of its direction
 *   (`parseWebviewMessage`, the gallery's `galleryWebviewMessageSchema`) and drops, with a log
 *   line, what does not match: the webview shows workspace and gateway content and is the side
 *   that could be made to send anything;
 * - a webview only checks that what arrives is one of ours in shape (`asMessage` in guard.ts) and
 *   lets unknown types fall through its table. The host builds its messages with this typed code
 *   from data it has already validated, and parsing them again would put zod into the webview
 *   bundles (about 38 KB).
 *
 * Requests: `chat/send`, `chat/regenerate`, … carry a `requestId`; the host answers with any
 * number of `chat/message` / `chat/delta` and then exactly one `chat/done` or `chat/error` with
 * that id; `chat/cancel` aborts. The requests answered to the asking view alone are typed as
 * pairs in {@link Replies}. The host queues everything until the webview says `webview/ready`,
 * then sends one `chat/snapshot`, so a reloaded or re-shown webview starts from the full state.
 *
 * The API key never crosses this boundary: no message has a field for it.
 */
import * as z from '../zod';
import { agentsHostMessages, agentsWebviewMessages } from './agents';
import { capsHostMessages, capsWebviewMessages } from './caps';
import { chatHostMessages, chatWebviewMessages } from './chat';
import { checkpointsHostMessages, checkpointsWebviewMessages } from './checkpoints';
import { contextHostMessages, contextWebviewMessages } from './context';
import { historyHostMessages, historyWebviewMessages } from './history';
import { mentionsHostMessages, mentionsWebviewMessages } from './mentions';
import { modelsHostMessages, modelsWebviewMessages } from './models';
import { panelHostMessages, panelWebviewMessages } from './panel';
import { profilesHostMessages, profilesWebviewMessages } from './profiles';
import { promptHostMessages, promptWebviewMessages } from './prompt';
import { queueHostMessages, queueWebviewMessages } from './queue';
import { slashHostMessages, slashWebviewMessages } from './slash';
import { toolsHostMessages, toolsWebviewMessages } from './tools';

export const hostMessageSchema = z.discriminatedUnion('type', [
  ...chatHostMessages,
  ...historyHostMessages,
  ...modelsHostMessages,
  ...panelHostMessages,
  ...toolsHostMessages,
  ...checkpointsHostMessages,
  ...mentionsHostMessages,
  ...contextHostMessages,
  ...promptHostMessages,
  ...profilesHostMessages,
  ...slashHostMessages,
  ...agentsHostMessages,
  ...capsHostMessages,
  ...queueHostMessages,
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  ...chatWebviewMessages,
  ...historyWebviewMessages,
  ...modelsWebviewMessages,
  ...panelWebviewMessages,
  ...toolsWebviewMessages,
  ...checkpointsWebviewMessages,
  ...mentionsWebviewMessages,
  ...contextWebviewMessages,
  ...promptWebviewMessages,
  ...profilesWebviewMessages,
  ...slashWebviewMessages,
  ...agentsWebviewMessages,
  ...capsWebviewMessages,
  ...queueWebviewMessages,
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/**
 * The requests the host answers to the view that asked, and only to it, with the type of the
 * answer. Others are answered to every view (`models/refresh` by `models/list`,
 * `checkpoints/preview` by `checkpoints/plan`) or by the conversation's stream.
 */
export interface Replies {
  'history/list': 'history/list';
  'mentions/query': 'mentions/results';
  'mentions/drop': 'mentions/add';
  'images/pick': 'images/picked';
  'slash/list': 'slash/commands';
}

/** The message a handler of `T` may reply with: its pair's, and nothing for a type without one. */
export type ReplyTo<T extends WebviewMessage['type']> = T extends keyof Replies
  ? Extract<HostMessage, { type: Replies[T] }>
  : never;

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

export * from './agents';
export * from './caps';
export * from './chat';
export * from './checkpoints';
export * from './context';
export * from './cost';
export * from './history';
export * from './mentions';
export * from './models';
export * from './panel';
export * from './profiles';
export * from './prompt';
export * from './queue';
export * from './slash';
export * from './tools';
export { newId } from '../ids';
