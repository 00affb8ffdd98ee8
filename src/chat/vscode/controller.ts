import * as vscode from 'vscode';
import { getGatewayClient } from '../../platform/gateway';
import { onDidChangeSettings, readSettings, type Settings } from '../../platform/settings';
import type { Services } from '../../platform/services';
import {
  parseWebviewMessage,
  type ChatParams,
  type EditorContext,
  type HostMessage,
  type ToolChoiceSetting,
  type ToolDecision,
  type ToolInfo,
  type WebviewMessage,
} from '../../shared/protocol';
import { redact } from '../../shared/redact';
import { WEBVIEW_STRINGS } from '../../shared/webviewStrings';
import { ChatSession } from '../session/core/session';
import type { ConversationToolCall, SessionSettings } from '../session/core/sessionDeps';
import { ConversationStore } from '../history/core/store';
import type { ToolExecutor } from '../tools/core/seam';
import type { ChatPanelApi, ToolSettingChange } from './api';
import { ChatCheckpoints, checkpointFolder } from '../checkpoints/vscode/checkpoints';
import { conversationImageFiles } from '../history/vscode/imageStorage';
import type { ChangeRecorder } from '../checkpoints/core/checkpoints';
import { EditorActions } from '../panel/vscode/editorActions';
import type { FeatureTaskSource } from '../../api/featureTools';
import { FollowedTasks, type FollowedEntry } from '../panel/core/followedTasks';
import { ChatHub, type Surface } from '../panel/core/hub';
import type * as Mentions from '../mentions/vscode/picker';
import type { MentionProvider } from '../mentions/vscode/picker';
import { PromptContext } from '../prompt/vscode/promptContext';

/**
 * The chat's host side: validates what every open chat webview sends and routes it to the
 * conversation ({@link ChatSession}, in `chat/core`), the webviews ({@link ChatHub}) or VS Code
 * itself ({@link EditorActions}). Also what the tools feature plugs into ({@link ChatPanelApi}).
 */
export class ChatController implements ChatPanelApi, vscode.Disposable {
  private readonly hub = new ChatHub();
  private readonly session: ChatSession;
  private readonly actions: EditorActions;
  private toolsMessage: HostMessage | undefined;
  private readonly decisionEmitter = new vscode.EventEmitter<{ callId: string; decision: ToolDecision }>();
  private readonly toolSettingsEmitter = new vscode.EventEmitter<ToolSettingChange>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly webviews = new Set<vscode.Webview>();
  private readonly followed: FollowedTasks;
  private readonly prompt: PromptContext;
  private readonly checkpoints: ChatCheckpoints;
  private mentionProvider: MentionProvider | undefined;
  /**
   * The @-mention sources are loaded on first use from their own file beside the bundle
   * (`dist/mentions.js`, see esbuild.js): most sessions never mention anything, and activation
   * does not parse them.
   */
  private get mentions(): MentionProvider {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load is the point
    const { MentionProvider: Provider } = require('gws-mentions') as typeof Mentions;
    return (this.mentionProvider ??= new Provider());
  }

  /** `isTrusted` stands in for `vscode.workspace.isTrusted` (tests of Restricted Mode). */
  constructor(
    private readonly s: Services,
    private readonly opts: { isTrusted?: () => boolean } = {},
  ) {
    this.prompt = new PromptContext({
      workspaceState: s.context.workspaceState,
      warn: (m) => s.log.warn(m),
      ...opts,
      broadcast: (m) => this.hub.broadcast(m),
      setRuleEnabled: (id, enabled) => this.session.setRuleEnabled(id, enabled),
      promptChanged: () => this.session.refreshPrompt(),
      nextSystemPrompt: () => this.session.nextSystemPrompt(),
    });
    const conversations = new ConversationStore(s.context.workspaceState, conversationImageFiles(s));
    this.session = new ChatSession({
      prompt: (c) => this.prompt.snapshot(c),
      store: conversations,
      backend: () => getGatewayClient(s, 'chat'),
      settings: () => sessionSettings(readSettings()),
      // A shown conversation's cards get the states of the tasks they follow.
      sink: {
        broadcast: (m) => {
          this.hub.broadcast(m);
          if (m.type === 'chat/conversation') {
            this.followed.conversationShown();
            void this.checkpoints.refresh();
          }
        },
        delta: (r, id, d) => this.hub.delta(r, id, d),
      },
      log: s.log,
      contextStorage: s.context.workspaceState,
    });
    this.actions = new EditorActions((msg) => this.hub.broadcast(msg));
    this.checkpoints = new ChatCheckpoints(
      checkpointFolder(s.context),
      {
        conversationId: () => this.session.conversationId,
        conversationIds: () => new Set([this.session.conversationId, ...conversations.list().map((e) => e.id)]),
        busy: () => this.session.busyRequestId !== undefined,
        broadcast: (m) => this.hub.broadcast(m),
        cutFrom: (id) => this.session.cutFrom(id),
      },
      s.log,
    );
    this.followed = new FollowedTasks({
      // Every chat page maps a file to the same resource URI, so any open one can make the link.
      asWebviewUri: (p) => {
        const w = this.webviews.values().next().value;
        return w ? w.asWebviewUri(vscode.Uri.file(p)).toString() : undefined;
      },
      rootsChanged: () => {
        for (const w of this.webviews) this.updateRoots(w);
      },
      broadcast: (msg) => this.hub.broadcast(msg),
      conversationId: () => this.session.conversationId,
      load: () => storedFollows(s.context.workspaceState.get<unknown>(FOLLOWED_KEY)),
      save: (entries) => void s.context.workspaceState.update(FOLLOWED_KEY, entries),
      warn: (text) => s.log.warn(text),
    });
    this.disposables.push(
      this.decisionEmitter,
      this.toolSettingsEmitter,
      this.actions,
      this.prompt,
      this.checkpoints,
      onDidChangeSettings(() => {
        this.session.settingsChanged();
        if (this.hub.size) void this.session.models.load();
      }),
      s.keys.onDidChange(() => {
        this.session.models.invalidate();
        if (this.hub.size) void this.session.models.load();
      }),
    );
  }

  get conversationId(): string {
    return this.session.conversationId;
  }

  /** Connects a webview (view or panel). Messages wait in a queue until it says `webview/ready`. */
  attach(webview: vscode.Webview, visible: () => boolean = () => true): vscode.Disposable {
    const surface = this.hub.add(webview, visible);
    this.webviews.add(webview);
    if (this.webviews.size === 1) void this.followed.refreshAll();
    const sub = webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = parseWebviewMessage(raw);
      if (!parsed.ok) {
        this.s.log.warn(`chat webview sent an invalid message: ${parsed.problem}`);
        // The webview marked itself busy for a request; without an answer it would stay so.
        const requestId =
          typeof raw === 'object' && raw !== null ? (raw as { requestId?: unknown }).requestId : undefined;
        if (typeof requestId === 'string' && requestId !== '' && requestId.length <= 100) {
          this.hub.send(surface, {
            type: 'chat/error',
            requestId,
            error: {
              title: vscode.l10n.t('Message not sent'),
              detail: vscode.l10n.t(
                'The chat could not accept it ({0}). Your text and attachments are back in the message box.',
                parsed.problem,
              ),
              actions: [],
            },
          });
        }
        return;
      }
      void this.route(surface, parsed.message).catch((err: unknown) => {
        this.s.log.error(err instanceof Error ? err : String(err));
        // An action the user asked for (export, attach, insert) must not fail silently.
        const why = redact(err instanceof Error ? err.message : String(err));
        this.hub.send(surface, {
          type: 'chat/notice',
          level: 'error',
          text: vscode.l10n.t('That did not work: {0}', why),
        });
      });
    });
    return new vscode.Disposable(() => {
      sub.dispose();
      this.webviews.delete(webview);
      this.hub.remove(surface);
    });
  }

  private async route(surface: Surface, m: WebviewMessage): Promise<void> {
    const session = this.session;
    switch (m.type) {
      case 'webview/ready':
        this.hub.ready(surface, this.state());
        if (session.models.stale) void session.models.load();
        await Promise.all([this.checkpoints.refresh(), this.prompt.post()]);
        return;
      // The conversation
      case 'chat/send':
        return m.mentions?.length ? this.sendWithMentions(m) : session.send(m.requestId, m);
      case 'chat/cancel':
        return session.cancel(m.requestId);
      case 'chat/regenerate':
      case 'chat/retry':
        return session.regenerate(m.requestId);
      case 'chat/editResend':
        return session.editResend(m.requestId, m.text);
      case 'chat/continue':
        return session.continue(m.requestId);
      case 'chat/new':
        return session.newChat();
      case 'chat/setModel':
        return session.setModel(m.model);
      case 'chat/setParams':
        return session.setParams(m.params, m.systemPrompt);
      case 'history/list':
        return this.hub.send(surface, session.historyMessage());
      case 'history/open':
        return session.open(m.conversationId);
      case 'history/rename':
        return session.rename(m.conversationId, m.title);
      case 'history/delete':
        await session.delete(m.conversationId);
        return this.checkpoints.forget(m.conversationId);
      case 'models/refresh':
        return session.models.load();
      // VS Code on the user's behalf
      case 'chat/export':
        return this.exportMarkdown();
      case 'chat/pickImages':
        return this.actions.pickImages((msg) => this.hub.send(surface, msg));
      case 'chat/imageRejected':
        return this.s.log.info(`image not attached: ${m.reason}`);
      case 'code/copy':
        return this.actions.copy(m.code);
      case 'code/insert':
        return this.actions.insertAtCursor(m.code);
      case 'code/open':
        return this.actions.openCode(m.code, m.language);
      case 'message/copy':
        return this.actions.copyMessage(session.shown, m.messageId);
      case 'link/open':
        return this.actions.openLink(m.href);
      case 'error/action':
        if (m.action === 'compact' || m.action === 'toolsOff' || m.action === 'toolsReadOnly')
          return session.contextAction(m.action);
        return this.actions.errorAction(m.action);
      case 'chat/compact':
        return session.contextAction('compact');
      case 'chat/toolMode':
        return session.setToolMode(m.mode);
      // The tools feature
      case 'chat/toolDecision':
        return this.decisionEmitter.fire({ callId: m.callId, decision: m.decision });
      case 'chat/videoAction':
        return this.followed.act(m.callId, m.action);
      case 'tools/setEnabled':
        return this.toolSettingsEmitter.fire({ kind: 'enabled', name: m.name, enabled: m.enabled });
      case 'tools/setTrusted':
        return this.toolSettingsEmitter.fire({ kind: 'trusted', name: m.name, trusted: m.trusted });
      case 'tools/setChoice':
        return this.toolSettingsEmitter.fire({ kind: 'choice', choice: m.choice });
      // Checkpoints
      case 'checkpoint/preview':
        return this.checkpoints.preview(m.answerId);
      case 'checkpoint/diff':
        return this.checkpoints.openDiff(m.answerId, m.path);
      case 'checkpoint/cancel':
        return this.hub.broadcast({ type: 'chat/checkpointPlan', answerId: m.answerId });
      case 'checkpoint/restore':
        return this.checkpoints.restore(m.answerId, m.overwrite, m.cut);
      // @-mentions
      case 'mentions/query':
        return this.hub.send(surface, {
          type: 'mentions/results',
          queryId: m.queryId,
          items: await this.mentions.query(m.query),
        });
      case 'mentions/drop':
        return this.hub.send(surface, {
          type: 'chat/mentions',
          ...(await this.mentions.fromUris(droppedUris(m.uris))),
        });
      // The system prompt and the rules chips
      case 'rules/setEnabled':
      case 'rules/open':
      case 'rules/allowUntrusted':
      case 'chat/showSystemPrompt':
        return this.prompt.handle(m);
    }
  }

  /** A message with @-mentions: their content is read now and stored with the message. */
  private async sendWithMentions(m: Extract<WebviewMessage, { type: 'chat/send' }>): Promise<void> {
    const settings = readSettings();
    const model = this.session.conversationMessage().conversation.model || settings.chatModel;
    const list = this.session.models.message();
    const info = list.type === 'chat/models' ? list.models.find((x) => x.id === model) : undefined;
    const r = await this.mentions.resolve(m.mentions ?? [], {
      acceptsImages: info?.supportsImages,
      model,
      maxImageBytes: Math.round(settings.chat.maxImageMegabytes * 1024 * 1024),
    });
    return this.session.send(m.requestId, { ...m, images: [...m.images, ...r.images], attachments: r.attachments });
  }

  /** "Add File to Chat": the files become chips in the composer of every chat. */
  async addFiles(uris: vscode.Uri[]): Promise<void> {
    this.hub.broadcastOrKeep({ type: 'chat/mentions', ...(await this.mentions.fromUris(uris)) });
  }

  /** The whole state a webview starts from when it is (re)loaded. */
  private state(): HostMessage[] {
    const settings = readSettings();
    const snapshot: HostMessage = {
      ...this.session.conversationMessage(),
      type: 'chat/snapshot',
      busyRequestId: this.session.busyRequestId,
      strings: Object.fromEntries(WEBVIEW_STRINGS.map((k) => [k, vscode.l10n.t(k)])),
      maxImageBytes: Math.round(settings.chat.maxImageMegabytes * 1024 * 1024),
    };
    return [
      snapshot,
      this.session.historyMessage(),
      this.session.models.message(),
      ...(this.toolsMessage ? [this.toolsMessage] : []),
      ...this.session.cardMessages(),
      ...this.followed.messages(),
      ...this.session.contextMessages(),
    ];
  }

  /** Export to Markdown (the command and the chat's menu). */
  exportMarkdown(): Promise<void> {
    return this.actions.exportMarkdown(this.session.shown);
  }

  /** "Show What Is Sent": the next request's system prompt in an untitled Markdown editor. */
  showSystemPrompt(): Promise<vscode.TextDocument> {
    return this.prompt.showSystemPrompt();
  }

  /** The nested `AGENTS.md` rules that apply to these files (for mentions of files). */
  nestedRulesFor(files: vscode.Uri[]): ReturnType<PromptContext['rules']['nestedFor']> {
    return this.prompt.rules.nestedFor(files);
  }

  /** The "New Chat" command. */
  newChatFromCommand(): Promise<void> {
    this.session.newChat();
    return Promise.resolve();
  }

  /** "Ask Gateway Studio about the selection": quotes it into the composer of every chat. */
  addContext(context: EditorContext): void {
    this.hub.broadcastOrKeep({ type: 'chat/context', context, prompt: vscode.l10n.t('Explain this code.') });
  }

  /** What a chat page may load: the bundle, the icons and the folders of followed tasks' videos. */
  webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'media'),
        ...this.followed.roots().map((p) => vscode.Uri.file(p)),
      ],
    };
  }

  private updateRoots(w: vscode.Webview): void {
    const opts = this.webviewOptions(this.s.context.extensionUri);
    const key = (o: vscode.WebviewOptions) => (o.localResourceRoots ?? []).map(String).join('\n');
    if (key(w.options) !== key(opts)) w.options = opts;
  }

  // -------------------------------------------------------------------------------------------
  // ChatPanelApi

  followTask(conversationId: string, callId: string, key: string, source: FeatureTaskSource): void {
    this.followed.follow(conversationId, callId, key, source);
  }

  offerTaskSource(source: FeatureTaskSource): void {
    this.followed.offer(source);
  }

  /** Records what restores a file before a tool changes it (the tools feature calls it). */
  get checkpointRecorder(): ChangeRecorder {
    return this.checkpoints.store;
  }

  postToolCall(update: ConversationToolCall): void {
    this.session.postToolCall(update);
  }

  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable {
    return this.decisionEmitter.event(listener);
  }

  isVisible(): boolean {
    return this.hub.isVisible();
  }

  isWorkspaceTrusted(): boolean {
    return this.opts.isTrusted?.() ?? vscode.workspace.isTrusted;
  }

  setToolExecutor(executor: ToolExecutor | undefined): void {
    this.session.setToolExecutor(executor);
  }

  postTools(tools: ToolInfo[], choice: ToolChoiceSetting): void {
    this.toolsMessage = { type: 'chat/tools', tools, choice };
    this.hub.broadcast(this.toolsMessage);
  }

  onToolSettings(listener: (e: ToolSettingChange) => void): vscode.Disposable {
    return this.toolSettingsEmitter.event(listener);
  }

  dispose(): void {
    this.followed.dispose();
    this.mentionProvider?.dispose();
    this.session.dispose();
    this.hub.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** Where the calls whose cards follow a task are kept (per workspace, like the conversations). */
const FOLLOWED_KEY = 'gatewayStudio.chat.followedTasks';

/** The stored follows that have the right shape (the store is ours, but may be of an older version). */
function storedFollows(v: unknown): FollowedEntry[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (e): e is FollowedEntry =>
      typeof e === 'object' &&
      e !== null &&
      (e as FollowedEntry).kind === 'videoTask' &&
      typeof (e as FollowedEntry).conversationId === 'string' &&
      typeof (e as FollowedEntry).callId === 'string' &&
      typeof (e as FollowedEntry).key === 'string',
  );
}

/** The URIs of a drop that parse; the webview only passes on what the explorer put there. */
function droppedUris(list: string[]): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const s of list) {
    try {
      const uri = vscode.Uri.parse(s.trim(), true);
      if (uri.scheme === 'file' || uri.scheme === 'vscode-remote' || uri.scheme === 'vscode-userdata') out.push(uri);
    } catch {
      // Not a URI (a text drop): nothing to attach.
    }
  }
  return out;
}

/** What the session reads of the settings. */
function sessionSettings(s: Settings): SessionSettings {
  return {
    chatModel: s.chatModel,
    systemPrompt: s.chat.systemPrompt,
    params: paramsFrom(s),
    maxRounds: s.tools.maxRounds,
    modelOverrides: s.modelOverrides,
  };
}

/** The settings' chat parameters under their wire names. */
export function paramsFrom(s: Settings): ChatParams {
  return {
    temperature: s.chat.temperature,
    top_p: s.chat.topP,
    max_tokens: s.chat.maxTokens,
    stop: s.chat.stop.filter((x) => typeof x === 'string' && x !== ''),
    presence_penalty: s.chat.presencePenalty,
    frequency_penalty: s.chat.frequencyPenalty,
    response_format: s.chat.responseFormat === 'json_object' ? 'json_object' : 'text',
    user: s.chat.user,
    stream: s.chat.stream,
  };
}
