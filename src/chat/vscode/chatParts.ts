// Parts of the chat controller built from the chat's hub, session and services: here so the
// controller stays the one place that wires them (and under its line limit).
import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { persistedState } from '../../platform/persistedState';
import { followedTasksKey } from '../../contracts/persistedState/chat';
import type { HostMessage } from '../../shared/protocol';
import { FollowedTasks } from '../panel/core/followedTasks';
import { ChatSlash } from '../slash/vscode/chatSlash';
import { ChatAgents } from '../agents/vscode/chatAgents';
import type { ChatSession } from '../session/core/session';
import type { SessionHooks } from '../session/core/sessionDeps';
import type { UserPlaces } from '../prompt/vscode/ruleFiles';
import type { CustomizationSourceProvider } from '../../contracts/customizations';
import type { ExtraMentions } from '../mentions/vscode/picker';
import type { ExtraSlash } from '../slash/vscode/slashCommands';

/**
 * `isTrusted` stands in for `vscode.workspace.isTrusted` (tests of Restricted Mode), `userPlaces`
 * for the user's home and profile folders (tests: their own, or none); `hooks` and `sources` come
 * from the chat's policies (hooks and command rules, loaded on first use).
 */
export interface ChatControllerOptions {
  isTrusted?: () => boolean;
  userPlaces?: UserPlaces;
  hooks?: SessionHooks;
  sources?: readonly CustomizationSourceProvider[];
  /** The MCP servers' resources as @-mentions and prompts as `/` commands (`chat/mcp`). */
  mcp?: { mentions: ExtraMentions; slash: ExtraSlash };
}

type Broadcast = (m: HostMessage) => void;
/** The tools menu's tools: the enabled ones and all the known ones. */
type ChatSlashTools = () => { enabled: string[]; known: string[] };

/** Prompt files and skills, over the tools menu's tools, the model list and the chat's notices. */
export function chatSlash(
  s: Services,
  extra: ExtraSlash | undefined,
  p: { isTrusted: () => boolean; toolNames: ChatSlashTools; session: () => ChatSession; broadcast: Broadcast },
): ChatSlash {
  return new ChatSlash({
    ...(extra ? { extra } : {}),
    isTrusted: p.isTrusted,
    globalStorage: s.context.globalStorageUri,
    tools: p.toolNames,
    modelIds: () => p.session().models.ids(),
    notice: (text) => p.broadcast({ type: 'chat/notice', level: 'warning', text }),
  });
}

/** The agent picker, the agent files and handoffs, over the shown conversation. */
export function chatAgents(
  s: Services,
  p: { session: () => ChatSession; broadcast: Broadcast; isTrusted?: () => boolean },
): ChatAgents {
  return new ChatAgents({
    broadcast: p.broadcast,
    activeAgent: () => p.session().shown.agent,
    setAgent: (id) => p.session().setAgent(id),
    send: (requestId, q) => p.session().send(requestId, { ...q, images: [], contexts: [] }),
    warn: (m) => s.log.warn(m),
    ...(p.isTrusted ? { isTrusted: p.isTrusted } : {}),
  });
}

/** The video tasks the cards follow, stored in the workspace, linked through any open chat page. */
export function chatFollowedTasks(
  s: Services,
  p: {
    webviews: ReadonlySet<vscode.Webview>;
    updateRoots: (w: vscode.Webview) => void;
    broadcast: Broadcast;
    conversationId: () => string;
  },
): FollowedTasks {
  return new FollowedTasks({
    // Every chat page maps a file to the same resource URI, so any open one can make the link.
    asWebviewUri: (f) => {
      const w = p.webviews.values().next().value;
      return w ? w.asWebviewUri(vscode.Uri.file(f)).toString() : undefined;
    },
    rootsChanged: () => {
      for (const w of p.webviews) p.updateRoots(w);
    },
    broadcast: p.broadcast,
    conversationId: p.conversationId,
    load: () => persistedState(s.context).get(followedTasksKey),
    save: (entries) => void persistedState(s.context).set(followedTasksKey, entries),
    warn: (text) => s.log.warn(text),
  });
}

/** The answer to an invalid message `raw` that named a request (the page marked itself busy for it). */
export function notSentFor(raw: unknown, problem: string): HostMessage | undefined {
  const requestId = typeof raw === 'object' && raw !== null ? (raw as { requestId?: unknown }).requestId : undefined;
  return typeof requestId === 'string' && requestId !== '' && requestId.length <= 100
    ? notSentError(requestId, problem)
    : undefined;
}

/** The answer to a message the chat could not accept: the page puts the text back in its box. */
export function notSentError(requestId: string, problem: string): HostMessage {
  return {
    type: 'chat/error',
    requestId,
    error: {
      title: vscode.l10n.t('Message not sent'),
      detail: vscode.l10n.t(
        'The chat could not accept it ({0}). Your text and attachments are back in the message box.',
        problem,
      ),
      actions: [],
    },
  };
}

/** What a chat page may load: the bundle, the icons and the folders of followed tasks' videos. */
export function chatWebviewOptions(extensionUri: vscode.Uri, roots: readonly string[]): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
      ...roots.map((p) => vscode.Uri.file(p)),
    ],
  };
}
