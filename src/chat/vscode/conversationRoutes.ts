import { readSettings } from '../../platform/settings';
import type { WebviewMessage } from '../../shared/protocol';
import type { ChatCheckpoints } from '../checkpoints/vscode/checkpoints';
import type { ChatMentions } from '../mentions/vscode/chatMentions';
import type { ChatSlash } from '../slash/vscode/chatSlash';
import type { Routes } from '../conversation/core/routes';
import type { EditorActions } from '../panel/vscode/editorActions';
import type { ChatSession } from '../session/core/session';
import type { Question } from '../session/core/sessionDeps';

/** The webview messages that act on the conversation, the history and the model list. */
export type ConversationMessageType =
  | 'chat/send'
  | 'chat/cancel'
  | 'chat/regenerate'
  | 'chat/retry'
  | 'chat/editResend'
  | 'chat/continue'
  | 'chat/new'
  | 'chat/setModel'
  | 'chat/setParams'
  | 'context/compact'
  | 'context/toolMode'
  | 'error/action'
  | 'history/list'
  | 'history/open'
  | 'history/rename'
  | 'history/delete'
  | 'models/refresh';

/** What the conversation's messages reach besides the session. */
export interface ConversationRoutesDeps {
  session: ChatSession;
  /** Resolves a message's @-mentions before it is sent. */
  mentions: ChatMentions;
  /** A deleted conversation's checkpoints go with it. */
  checkpoints: Pick<ChatCheckpoints, 'forget'>;
  /** An error's buttons other than the context window's. */
  actions: Pick<EditorActions, 'errorAction'>;
  /** Turns a `/command` message into its question; `notice` shows a line under the composer. */
  slash?: Pick<ChatSlash, 'commands' | 'notice'>;
  /** Settles once what the page chose before sending is applied (its agent): a send waits for it. */
  chosen?: () => Promise<void>;
}

/** The session's share of the routing table: what the user does to the conversation. */
export function conversationRoutes(d: ConversationRoutesDeps): Routes<ConversationMessageType> {
  const { session } = d;
  return {
    'chat/send': async (m) => {
      // An agent picked just before sending is applied first: else the turn ran as the one before.
      await d.chosen?.();
      return d.slash && m.text.trimStart().startsWith('/')
        ? sendCommand(d, m)
        : m.mentions?.length
          ? sendWithMentions(d, m)
          : session.send(m.requestId, m);
    },
    'chat/cancel': (m) => session.cancel(m.requestId),
    'chat/regenerate': (m) => session.regenerate(m.requestId),
    'chat/retry': (m) => session.regenerate(m.requestId),
    'chat/editResend': (m) => session.editResend(m.requestId, m.text),
    'chat/continue': (m) => session.continue(m.requestId),
    'chat/new': () => session.newChat(),
    'chat/setModel': (m) => session.setModel(m.model),
    'chat/setParams': (m) => session.setParams(m.params, m.systemPrompt),
    'context/compact': () => session.contextAction('compact'),
    'context/toolMode': (m) => session.setToolMode(m.mode),
    'error/action': (m) =>
      m.action === 'compact' || m.action === 'toolsOff' || m.action === 'toolsReadOnly'
        ? session.contextAction(m.action)
        : d.actions.errorAction(m.action),
    'history/list': (_m, reply) => reply(session.historyMessage()),
    'history/open': (m) => session.open(m.conversationId),
    'history/rename': (m) => session.rename(m.conversationId, m.title),
    'history/delete': async (m) => {
      await session.delete(m.conversationId);
      await d.checkpoints.forget(m.conversationId);
    },
    'models/refresh': () => session.models.load(),
  };
}

/**
 * A message that starts with `/`: a prompt file's or skill's command becomes its question (its
 * links attached like @-mentions, its model for this request only); any other text is sent as typed.
 */
async function sendCommand(
  d: ConversationRoutesDeps,
  m: Extract<WebviewMessage, { type: 'chat/send' }>,
): Promise<void> {
  const slash = d.slash!;
  const r = await (await slash.commands).expand(m.text);
  if (r === undefined) return m.mentions?.length ? sendWithMentions(d, m) : d.session.send(m.requestId, m);
  if (r === 'cancelled') return d.session.endRequestWithoutTurn(m.requestId);
  for (const n of r.notes) slash.notice(n);
  const linked = r.attach.length ? await (await d.mentions.provider).fromUris(r.attach) : { items: [], problems: [] };
  for (const p of linked.problems) slash.notice(p);
  const q = {
    ...m,
    text: r.text,
    mentions: [...(m.mentions ?? []), ...linked.items],
    ...(r.model ? { model: r.model } : {}),
    ...(r.agent ? { agent: r.agent } : {}),
    ...(r.tools ? { tools: r.tools } : {}),
  };
  return q.mentions.length ? sendWithMentions(d, q) : d.session.send(m.requestId, q);
}

/** A message with @-mentions: their content is read now and stored with the message. */
async function sendWithMentions(
  d: ConversationRoutesDeps,
  m: Extract<WebviewMessage, { type: 'chat/send' }> & Pick<Question, 'model' | 'agent' | 'tools'>,
): Promise<void> {
  const model = d.session.currentModel();
  const r = await (
    await d.mentions.provider
  ).resolve(m.mentions ?? [], {
    acceptsImages: model.info?.supportsImages,
    model: model.id,
    maxImageBytes: maxImageBytes(),
  });
  return d.session.send(m.requestId, { ...m, images: [...m.images, ...r.images], attachments: r.attachments });
}

/** `gatewayStudio.chat.maxImageMegabytes` in bytes. */
export function maxImageBytes(): number {
  return Math.round(readSettings().chat.maxImageMegabytes * 1024 * 1024);
}
