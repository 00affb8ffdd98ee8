import { readSettings } from '../../platform/settings';
import type { WebviewMessage } from '../../shared/protocol';
import type { ChatCheckpoints } from '../checkpoints/vscode/checkpoints';
import type { ChatMentions } from '../mentions/vscode/chatMentions';
import type { Routes } from '../conversation/core/routes';
import type { EditorActions } from '../panel/vscode/editorActions';
import type { ChatSession } from '../session/core/session';

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
}

/** The session's share of the routing table: what the user does to the conversation. */
export function conversationRoutes(d: ConversationRoutesDeps): Routes<ConversationMessageType> {
  const { session } = d;
  return {
    'chat/send': (m) => (m.mentions?.length ? sendWithMentions(d, m) : session.send(m.requestId, m)),
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

/** A message with @-mentions: their content is read now and stored with the message. */
async function sendWithMentions(
  d: ConversationRoutesDeps,
  m: Extract<WebviewMessage, { type: 'chat/send' }>,
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
