import * as vscode from 'vscode';
import { answering, failoverBackend } from '../failover/vscode/failover';
import { chatSessionSettings, onDidChangeSettings } from '../../platform/settings';
import type { Services } from '../../platform/services';
import {
  parseWebviewMessage,
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
import type { ConversationToolCall, ToolExecutor } from '../tools/core/seam';
import { ConversationStore } from '../history/core/store';
import type { ChatPanelApi, ToolSettingChange } from '../tools/vscode/chatPort';
import { ChatCheckpoints, checkpointFolder } from '../checkpoints/vscode/checkpoints';
import { conversationImageFiles } from '../history/vscode/imageStorage';
import { conversationStorage } from '../history/vscode/conversationStorage';
import type { ChangeRecorder } from '../conversation/core/contracts';
import { EditorActions } from '../panel/vscode/editorActions';
import type { MediaJobSource } from '../../contracts/featureTools';
import type { FollowedTasks } from '../panel/core/followedTasks';
import { ChatHub, type Surface } from '../panel/core/hub';
import { route, type Routes } from '../conversation/core/routes';
import { ChatMentions } from '../mentions/vscode/chatMentions';
import { PromptContext } from '../prompt/vscode/promptContext';
import type { ChatSlash } from '../slash/vscode/chatSlash';
import { defaultUserPlaces } from '../prompt/vscode/ruleFiles';
import { conversationRoutes, maxImageBytes } from './conversationRoutes';
import { customizationProviders } from './customizations';
import { ChatProfiles } from './chatProfiles';
import { ToolBridge } from './toolBridge';
import type { ChatAgents } from '../agents/vscode/chatAgents';
import { chatAgents, chatFollowedTasks, chatSlash, chatWebviewOptions, notSentFor } from './chatParts';
import type { ChatControllerOptions } from './chatParts';
import { ChatCaps } from '../caps/vscode/chatCaps';
import { ChatQueue } from '../queue/vscode/chatQueue';

/**
 * The chat's host side: validates what every chat webview sends and routes it to the capability
 * of its type (the table below): the conversation ({@link ChatSession}), checkpoints, mentions, the
 * prompt, the queue, the tools ({@link ToolBridge}) or VS Code ({@link EditorActions}).
 */
export class ChatController implements ChatPanelApi, vscode.Disposable {
  private readonly hub = new ChatHub();
  readonly session: ChatSession;
  private readonly actions: EditorActions;
  private readonly tools: ToolBridge;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly webviews = new Set<vscode.Webview>();
  private readonly followed: FollowedTasks;
  private readonly prompt: PromptContext;
  private readonly checkpoints: ChatCheckpoints;
  private readonly mentions: ChatMentions;
  private readonly profiles: ChatProfiles;
  readonly caps = new ChatCaps(
    () => this.s,
    (m) => this.hub.broadcast(m),
    () => this.session,
    answering,
  );
  /** Prompt files and skills: the `/` menu, `/name` messages, the skills the model may load. */
  private readonly slash: ChatSlash;
  private readonly queue: ChatQueue;
  /** The agent picker, the agent files and handoffs (`chat/agents`). */
  readonly agents: ChatAgents;
  /** Each webview message type and the capability's handler of it (all but the page's `webview/ready`). */
  private readonly routes: Routes<Exclude<WebviewMessage['type'], 'webview/ready'>>;

  constructor(
    private readonly s: Services,
    private readonly opts: ChatControllerOptions = {},
  ) {
    this.prompt = new PromptContext({
      workspaceState: s.context.workspaceState,
      warn: (m) => s.log.warn(m),
      userPlaces: defaultUserPlaces(s.context.globalStorageUri),
      ...opts,
      broadcast: (m) => this.hub.broadcast(m),
      setRuleEnabled: (id, enabled) => this.session.setRuleEnabled(id, enabled),
      promptChanged: () => this.session.refreshPrompt(),
      nextSystemPrompt: () => this.session.nextSystemPrompt(),
    });
    this.profiles = new ChatProfiles(s, {
      broadcast: (m) => this.hub.broadcast(m),
      shown: () => this.session.shown,
      moved: () => {
        this.session.settingsChanged();
        if (this.hub.size) void this.session.models.load();
      },
    });
    this.mentions = new ChatMentions(opts.mcp?.mentions);
    this.slash = chatSlash(s, opts.mcp?.slash, {
      isTrusted: () => this.isWorkspaceTrusted(),
      toolNames: () => this.tools.toolNames(),
      session: () => this.session,
      broadcast: (m) => this.hub.broadcast(m),
    });
    this.agents = chatAgents(s, {
      session: () => this.session,
      broadcast: (m) => this.hub.broadcast(m),
      ...(opts.isTrusted ? { isTrusted: opts.isTrusted } : {}),
    });
    const conversations = new ConversationStore(conversationStorage(s), conversationImageFiles(s));
    this.queue = new ChatQueue(
      s.context,
      () => this.session,
      (m) => this.hub.broadcast(m),
    );
    this.session = this.createSession(conversations);
    this.actions = new EditorActions(
      (msg) => this.hub.broadcast(msg),
      () => this.session.shown,
      s.log,
    );
    this.tools = new ToolBridge((msg) => this.hub.broadcast(msg));
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
    this.followed = chatFollowedTasks(s, {
      webviews: this.webviews,
      updateRoots: (w) => this.updateRoots(w),
      broadcast: (m) => this.hub.broadcast(m),
      conversationId: () => this.session.conversationId,
    });
    this.routes = this.routeTable();
    this.disposables.push(...this.parts());
  }

  private routeTable(): ChatController['routes'] {
    return {
      ...conversationRoutes({
        session: this.session,
        mentions: this.mentions,
        checkpoints: this.checkpoints,
        actions: this.actions,
        slash: this.slash,
        chosen: () => this.agents.selected(),
      }),
      ...this.actions.routes,
      ...this.tools.routes,
      'tools/videoAction': (m) => this.followed.act(m.callId, m.action),
      ...this.checkpoints.routes,
      ...this.mentions.routes,
      ...this.prompt.routes,
      ...this.profiles.routes,
      ...this.slash.routes,
      ...this.agents.routes,
      ...this.caps.routes,
      ...this.queue.routes,
    };
  }

  /** What the controller disposes of: its parts and its listeners. */
  private parts(): vscode.Disposable[] {
    const s = this.s;
    return [
      this.tools,
      this.actions,
      this.prompt,
      this.checkpoints,
      this.mentions,
      this.slash,
      onDidChangeSettings(() => {
        this.session.settingsChanged();
        if (this.hub.size) void this.session.models.load();
      }),
      s.keys.onDidChange(() => {
        this.session.models.invalidate();
        if (this.hub.size) void this.session.models.load();
      }),
      this.profiles,
      this.agents,
    ];
  }

  /** The session over the stored conversations, with the prompt (rules, skills), profiles, hub and prices. */
  private createSession(conversations: ConversationStore): ChatSession {
    const s = this.s;
    return new ChatSession({
      prompt: async (c) => ({ ...(await this.prompt.snapshot(c)), skills: await this.slash.skillSummaries() }),
      store: conversations,
      // The conversation's own profile (set at its first request), else the next of its model's failover list, each with its own key.
      backend: () => failoverBackend(s, (this.session.shown.profile ??= s.profiles.activeId())),
      hasKey: async () => (await s.profiles.keyOf(this.session.shown.profile ?? s.profiles.activeId())) !== undefined,
      // The default model is the conversation's profile's (a profile's own, else the setting's).
      settings: () => ({ ...chatSessionSettings(), chatModel: this.profiles.profileOf(this.session.shown).chatModel }),
      sink: this.hub,
      events: {
        // A shown conversation's cards get the states of the tasks they follow, and its checkpoints.
        conversationShown: () => {
          this.followProfile();
          this.followed.conversationShown();
          void this.checkpoints.refresh();
        },
      },
      log: s.log,
      contextStorage: s.context.workspaceState,
      agents: this.agents,
      caps: this.caps,
      queue: this.queue.turns,
      priceAnswer: (b, q) => s.answerCosts.price({ ...q, ...answering(b) }), // after the answer, by its gateway
      ...(this.opts.hooks ? { hooks: this.opts.hooks } : {}),
    });
  }

  /** Showing a conversation makes its profile the active one (the status bar says which is used). */
  private followProfile(): void {
    const p = this.session.shown.profile;
    if (p === undefined || p === this.s.profiles.activeId() || !this.s.profiles.get(p)) return;
    void this.s.profiles.setActive(p).catch(() => undefined);
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
        const notSent = notSentFor(raw, parsed.problem);
        if (notSent) this.hub.send(surface, notSent);
        return;
      }
      const reply = (msg: HostMessage) => this.hub.send(surface, msg);
      void this.handle(surface, parsed.message, reply).catch((err: unknown) => {
        this.s.log.error(err instanceof Error ? err : String(err));
        // An action the user asked for (export, attach, insert) must not fail silently.
        const why = redact(err instanceof Error ? err.message : String(err));
        reply({ type: 'chat/notice', level: 'error', text: vscode.l10n.t('That did not work: {0}', why) });
      });
    });
    return new vscode.Disposable(() => {
      sub.dispose();
      this.webviews.delete(webview);
      this.hub.remove(surface);
    });
  }

  /** Hands a message to its handler at once (the page's order is the order of effects); a throw rejects. */
  private async handle(surface: Surface, m: WebviewMessage, reply: (msg: HostMessage) => void): Promise<void> {
    return m.type === 'webview/ready' ? this.ready(surface) : route(this.routes, m, reply);
  }

  /** A webview (re)loaded: it gets the whole state, then the checkpoints and the rules chips. */
  private async ready(surface: Surface): Promise<void> {
    this.hub.ready(surface, this.state());
    if (this.session.models.stale) void this.session.models.load();
    await Promise.all([this.checkpoints.refresh(), this.prompt.post(), this.agents.post()]);
  }

  /** "Add File to Chat": the files become chips in the composer of every chat. */
  async addFiles(uris: vscode.Uri[]): Promise<void> {
    this.hub.broadcastOrKeep({ type: 'mentions/add', ...(await (await this.mentions.provider).fromUris(uris)) });
  }

  /** The whole state a webview starts from when it is (re)loaded. */
  private state(): HostMessage[] {
    const snapshot: HostMessage = {
      ...this.session.conversationMessage(),
      type: 'chat/snapshot',
      busyRequestId: this.session.busyRequestId,
      strings: Object.fromEntries(WEBVIEW_STRINGS.map((k) => [k, vscode.l10n.t(k)])),
      maxImageBytes: maxImageBytes(),
    };
    return [
      snapshot,
      this.session.historyMessage(),
      this.session.models.message(),
      this.profiles.message(),
      ...this.tools.messages(),
      ...this.session.cardMessages(),
      ...this.followed.messages(),
      ...this.session.contextMessages(),
      ...this.queue.messages(),
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

  /** The nested `AGENTS.md` and `CLAUDE.md` rules that apply to these files (for mentions of files). */
  nestedRulesFor(files: vscode.Uri[]): ReturnType<PromptContext['nestedFor']> {
    return this.prompt.nestedFor(files);
  }

  /** "Show Customizations": every reader's sources, for the shown conversation. */
  async showCustomizations(): Promise<void> {
    const { showCustomizations } = await import('../customizations/vscode/showCustomizations');
    const more = [...this.slash.providers, this.agents.sources, ...(this.opts.sources ?? [])];
    await showCustomizations(customizationProviders({ prompt: this.prompt, shown: () => this.session.shown, more }));
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
    return chatWebviewOptions(extensionUri, this.followed.roots());
  }

  private updateRoots(w: vscode.Webview): void {
    const opts = this.webviewOptions(this.s.context.extensionUri);
    const key = (o: vscode.WebviewOptions) => (o.localResourceRoots ?? []).map(String).join('\n');
    if (key(w.options) !== key(opts)) w.options = opts;
  }

  // ---- ChatPanelApi -------------------------------------------------------------------------

  followTask(conversationId: string, callId: string, key: string, source: MediaJobSource): void {
    this.followed.follow(conversationId, callId, key, source);
  }

  offerTaskSource(source: MediaJobSource): void {
    this.followed.offer(source);
  }

  /** The skills load_skill reads (the tools feature offers it while there is one). */
  get skills(): ChatSlash['library'] {
    return this.slash.library;
  }

  /** Records what restores a file before a tool changes it (the tools feature calls it). */
  get checkpointRecorder(): ChangeRecorder {
    return this.checkpoints.store;
  }

  postToolCall(update: ConversationToolCall): void {
    this.session.postToolCall(update);
  }

  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable {
    return this.tools.onToolDecision(listener);
  }
  readonly onToolAnswer: NonNullable<ChatPanelApi['onToolAnswer']> = (take) => this.tools.onToolAnswer(take);

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
    this.tools.postTools(tools, choice);
  }

  onToolSettings(listener: (e: ToolSettingChange) => void): vscode.Disposable {
    return this.tools.onToolSettings(listener);
  }

  dispose(): void {
    this.followed.dispose();
    this.session.dispose();
    this.hub.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
