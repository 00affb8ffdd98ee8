import * as vscode from 'vscode';
import { describeError } from '../../api/errors';
import { acceptsImages, isVideoModel } from '../../api/models';
import { getGatewayClient, runErrorAction } from '../../platform/gateway';
import { onDidChangeSettings, readSettings, type Settings } from '../../platform/settings';
import type { Services } from '../../platform/services';
import {
  newId,
  parseWebviewMessage,
  type AssistantMessage,
  type ChatParams,
  type Conversation,
  type EditorContext,
  type ErrorAction,
  type ErrorView,
  type HostMessage,
  type ImageAttachment,
  type ModelInfo,
  type ToolCallUpdate,
  type ToolChoiceSetting,
  type ToolDecision,
  type ToolInfo,
  type UserMessage,
  type WebviewMessage,
} from '../../shared/protocol';
import { redact } from '../../shared/redact';
import { WEBVIEW_STRINGS } from '../../shared/webviewStrings';
import { conversationToMarkdown } from '../core/export';
import { PartialSaver } from '../core/partialSave';
import type { RequestDefaults } from '../core/request';
import { ConversationStore, newConversation, titleFor } from '../core/store';
import type { ToolExecutor } from '../core/toolSeam';
import { runTurn, type TurnWords } from '../core/turnRunner';

/** A tool-menu change made by the user in the chat. */
export type ToolSettingChange =
  | { kind: 'enabled'; name: string; enabled: boolean }
  | { kind: 'trusted'; name: string; trusted: boolean }
  | { kind: 'choice'; choice: ToolChoiceSetting };

/**
 * What the chat offers other features (the tools feature uses all of it). Obtained from
 * `registerChat(services)`.
 */
export interface ChatPanelApi {
  /** Shows or updates a tool card in every open chat (also replayed to a reloaded webview). */
  postToolCall(update: ToolCallUpdate): void;
  /** Allow / Deny / Always allow clicked on a card. */
  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable;
  /** The executor used for every later turn: its definitions are sent, its calls run. */
  setToolExecutor(executor: ToolExecutor | undefined): void;
  /** Feeds the tools menu (enabled / trusted toggles, tool_choice). */
  postTools(tools: ToolInfo[], choice: ToolChoiceSetting): void;
  /** A toggle or the tool_choice changed in the tools menu. */
  onToolSettings(listener: (e: ToolSettingChange) => void): vscode.Disposable;
  /** The conversation currently shown (for tools that need its id). */
  readonly conversationId: string;
  /** Whether a chat (view or panel) is on screen now, so a card there can be seen. */
  isVisible(): boolean;
}

interface Surface {
  webview: vscode.Webview;
  visible: () => boolean;
  ready: boolean;
  queue: HostMessage[];
}

/** Messages whose content the snapshot already carries, so queued copies are dropped on ready. */
const SUPERSEDED_BY_SNAPSHOT = new Set<HostMessage['type']>([
  'chat/snapshot', 'chat/conversation', 'chat/message', 'chat/delta', 'chat/done', 'chat/error', 'chat/busy',
  'chat/history', 'chat/models', 'chat/tools', 'chat/toolCall',
]);

/**
 * The chat's host side: owns the current conversation, the store, the running request and every
 * open chat webview (the sidebar view and the editor panel show the same conversation). All
 * webview input is validated with the protocol schema before it is acted on.
 */
export class ChatController implements ChatPanelApi, vscode.Disposable {
  private readonly store: ConversationStore;
  private conversation: Conversation;
  private readonly surfaces = new Set<Surface>();
  private active: { requestId: string; abort: AbortController } | undefined;
  private models: ModelInfo[] = [];
  private modelsError: ErrorView | undefined;
  private modelsLoading = false;
  private modelsLoaded = false;
  private executor: ToolExecutor | undefined;
  private toolsMessage: HostMessage | undefined;
  private readonly cards = new Map<string, ToolCallUpdate>();
  private readonly decisionEmitter = new vscode.EventEmitter<{ callId: string; decision: ToolDecision }>();
  private readonly toolSettingsEmitter = new vscode.EventEmitter<ToolSettingChange>();
  private readonly disposables: vscode.Disposable[] = [];
  private pendingDeltas = new Map<string, { requestId: string; content: string; reasoning: string }>();
  private deltaTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private lastEditor: vscode.TextEditor | undefined;
  /** Selections added while no chat view existed yet; handed to the first one that is ready. */
  private orphanContexts: HostMessage[] = [];

  constructor(private readonly s: Services) {
    this.store = new ConversationStore(s.context.workspaceState);
    for (const p of this.store.problems) s.log.warn(`chat history: ${p.id}: ${p.problem}`);
    const activeId = this.store.activeId;
    this.conversation = (activeId && this.store.load(activeId)) || newConversation();
    this.lastEditor = vscode.window.activeTextEditor;
    this.disposables.push(
      this.decisionEmitter,
      this.toolSettingsEmitter,
      onDidChangeSettings((settings) => {
        if (!this.active) this.broadcast(this.conversationMessage(settings));
        this.modelsLoaded = false;
        if (this.surfaces.size) void this.loadModels();
      }),
      s.keys.onDidChange(() => {
        this.modelsLoaded = false;
        if (this.surfaces.size) void this.loadModels();
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e) this.lastEditor = e;
      }),
    );
  }

  get conversationId(): string {
    return this.conversation.id;
  }

  // -------------------------------------------------------------------------------------------
  // Surfaces

  /** Connects a webview (view or panel). Messages wait in a queue until it says `webview/ready`. */
  attach(webview: vscode.Webview, visible: () => boolean = () => true): vscode.Disposable {
    const surface: Surface = { webview, visible, ready: false, queue: [] };
    this.surfaces.add(surface);
    const sub = webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = parseWebviewMessage(raw);
      if (!parsed.ok) {
        this.s.log.warn(`chat webview sent an invalid message: ${parsed.problem}`);
        // The webview marked itself busy for a request; without an answer it would stay so.
        const requestId = typeof raw === 'object' && raw !== null ? (raw as { requestId?: unknown }).requestId : undefined;
        if (typeof requestId === 'string' && requestId !== '' && requestId.length <= 100) {
          this.send(surface, {
            type: 'chat/error',
            requestId,
            error: { title: vscode.l10n.t('Message not sent'), detail: vscode.l10n.t('The chat could not accept it ({0}). Your text and attachments are back in the message box.', parsed.problem), actions: [] },
          });
        }
        return;
      }
      void this.handle(surface, parsed.message).catch((err: unknown) => {
        this.s.log.error(err instanceof Error ? err : String(err));
        // An action the user asked for (export, attach, insert) must not fail silently.
        const why = redact(err instanceof Error ? err.message : String(err));
        this.send(surface, { type: 'chat/notice', level: 'error', text: vscode.l10n.t('That did not work: {0}', why) });
      });
    });
    return new vscode.Disposable(() => {
      sub.dispose();
      this.surfaces.delete(surface);
    });
  }

  private send(surface: Surface, msg: HostMessage): void {
    if (!surface.ready) {
      surface.queue.push(msg);
      return;
    }
    void surface.webview.postMessage(msg).then(undefined, () => undefined);
  }

  private broadcast(msg: HostMessage): void {
    if (msg.type !== 'chat/delta') this.flushDeltas();
    for (const s of this.surfaces) this.send(s, msg);
  }

  /** Sends deltas at most every 16 ms per answer, so a fast stream is not one IPC per token. */
  private queueDelta(requestId: string, messageId: string, d: { content?: string; reasoning?: string }): void {
    const cur = this.pendingDeltas.get(messageId) ?? { requestId, content: '', reasoning: '' };
    cur.content += d.content ?? '';
    cur.reasoning += d.reasoning ?? '';
    this.pendingDeltas.set(messageId, cur);
    this.deltaTimer ??= setTimeout(() => this.flushDeltas(), 16);
  }

  private flushDeltas(): void {
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
    this.deltaTimer = undefined;
    const pending = this.pendingDeltas;
    if (pending.size === 0) return;
    this.pendingDeltas = new Map();
    for (const [messageId, d] of pending) {
      const msg: HostMessage = { type: 'chat/delta', requestId: d.requestId, messageId };
      if (d.content) msg.content = d.content;
      if (d.reasoning) msg.reasoning = d.reasoning;
      for (const s of this.surfaces) this.send(s, msg);
    }
  }

  private snapshot(): HostMessage {
    const settings = readSettings();
    const strings = Object.fromEntries(WEBVIEW_STRINGS.map((k) => [k, vscode.l10n.t(k)]));
    return {
      type: 'chat/snapshot',
      conversation: this.conversation,
      defaults: paramsFrom(settings),
      defaultModel: settings.chatModel,
      defaultSystemPrompt: settings.chat.systemPrompt,
      busyRequestId: this.active?.requestId,
      strings,
      maxImageBytes: Math.round(settings.chat.maxImageMegabytes * 1024 * 1024),
    };
  }

  private conversationMessage(settings: Settings = readSettings()): HostMessage {
    return {
      type: 'chat/conversation',
      conversation: this.conversation,
      defaults: paramsFrom(settings),
      defaultModel: settings.chatModel,
      defaultSystemPrompt: settings.chat.systemPrompt,
    };
  }

  private onReady(surface: Surface): void {
    this.flushDeltas();
    const kept = surface.queue.filter((m) => !SUPERSEDED_BY_SNAPSHOT.has(m.type));
    surface.queue = [];
    surface.ready = true;
    this.send(surface, this.snapshot());
    this.send(surface, this.historyMessage());
    this.send(surface, { type: 'chat/models', models: this.models, loading: this.modelsLoading, error: this.modelsError });
    if (this.toolsMessage) this.send(surface, this.toolsMessage);
    for (const card of this.cards.values()) this.send(surface, { type: 'chat/toolCall', update: card });
    for (const m of kept) this.send(surface, m);
    for (const m of this.orphanContexts) this.send(surface, m);
    this.orphanContexts = [];
    if (!this.modelsLoaded && !this.modelsLoading) void this.loadModels();
  }

  // -------------------------------------------------------------------------------------------
  // Webview input

  private async handle(surface: Surface, m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'webview/ready':
        this.onReady(surface);
        return;
      case 'chat/send': {
        if (this.refuseWhileBusy(m.requestId)) return;
        const user: UserMessage = { id: newId('u'), role: 'user', text: m.text, images: m.images, contexts: m.contexts, createdAt: Date.now() };
        this.conversation.messages.push(user);
        this.conversation.updatedAt = Date.now();
        this.broadcast({ type: 'chat/message', requestId: m.requestId, message: user });
        await this.runTurn(m.requestId);
        return;
      }
      case 'chat/cancel':
        if (this.active?.requestId === m.requestId) this.active.abort.abort();
        return;
      case 'chat/regenerate':
      case 'chat/retry':
        if (this.refuseWhileBusy(m.requestId)) return;
        if (!this.truncateAfterLastUser()) return this.endRequestWithoutTurn(m.requestId);
        this.conversation.updatedAt = Date.now();
        this.broadcast(this.conversationMessage());
        await this.runTurn(m.requestId);
        return;
      case 'chat/editResend': {
        if (this.refuseWhileBusy(m.requestId)) return;
        const last = this.lastUser();
        if (!last) return this.endRequestWithoutTurn(m.requestId);
        last.text = m.text;
        this.truncateAfterLastUser();
        this.conversation.updatedAt = Date.now();
        this.broadcast(this.conversationMessage());
        await this.runTurn(m.requestId);
        return;
      }
      case 'chat/continue': {
        if (this.refuseWhileBusy(m.requestId)) return;
        const text = vscode.l10n.t('Continue exactly where your last answer stopped.');
        const pending = this.conversation.messages.at(-1);
        // Its question is stored when sent, so a window that died before the answer came back
        // with it unanswered: Continue then asks it again rather than adding a second one.
        if (pending?.role === 'user' && pending.text === text) {
          this.conversation.updatedAt = Date.now();
          await this.runTurn(m.requestId);
          return;
        }
        const user: UserMessage = { id: newId('u'), role: 'user', text, images: [], contexts: [], createdAt: Date.now() };
        this.conversation.messages.push(user);
        this.conversation.updatedAt = Date.now();
        this.broadcast({ type: 'chat/message', requestId: m.requestId, message: user });
        await this.runTurn(m.requestId);
        return;
      }
      case 'chat/new':
        this.newChat();
        return;
      case 'chat/export':
        await this.exportMarkdown();
        return;
      case 'chat/setModel':
        this.conversation.model = m.model.trim() === readSettings().chatModel ? '' : m.model.trim();
        await this.save();
        return;
      case 'chat/setParams':
        this.conversation.params = m.params;
        if (m.systemPrompt !== undefined) this.conversation.systemPrompt = m.systemPrompt ?? undefined;
        await this.save();
        if (!this.active) this.broadcast(this.conversationMessage());
        return;
      case 'chat/pickImages':
        await this.pickImages(surface);
        return;
      case 'chat/imageRejected':
        this.s.log.info(`image not attached: ${m.reason}`);
        return;
      case 'history/list':
        this.send(surface, this.historyMessage());
        return;
      case 'history/open':
        this.openConversation(m.conversationId);
        return;
      case 'history/rename': {
        const renamed = await this.store.rename(m.conversationId, m.title);
        if (renamed && renamed.id === this.conversation.id) this.conversation.title = renamed.title;
        this.broadcast(this.historyMessage());
        return;
      }
      case 'history/delete':
        await this.store.delete(m.conversationId);
        if (m.conversationId === this.conversation.id) this.newChat();
        this.broadcast(this.historyMessage());
        return;
      case 'models/refresh':
        await this.loadModels();
        return;
      case 'code/copy':
        await vscode.env.clipboard.writeText(m.code);
        return;
      case 'code/insert':
        await this.insertAtCursor(m.code);
        return;
      case 'code/open': {
        const doc = await vscode.workspace.openTextDocument({ content: m.code, language: languageId(m.language) });
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
        return;
      }
      case 'message/copy': {
        const msg = this.conversation.messages.find((x) => x.id === m.messageId);
        if (msg?.role === 'assistant') await vscode.env.clipboard.writeText(msg.content);
        else if (msg?.role === 'user') await vscode.env.clipboard.writeText(msg.text);
        return;
      }
      case 'link/open':
        await this.openLink(m.href);
        return;
      case 'error/action':
        await this.errorAction(m.action);
        return;
      case 'chat/toolDecision':
        this.decisionEmitter.fire({ callId: m.callId, decision: m.decision });
        return;
      case 'tools/setEnabled':
        this.toolSettingsEmitter.fire({ kind: 'enabled', name: m.name, enabled: m.enabled });
        return;
      case 'tools/setTrusted':
        this.toolSettingsEmitter.fire({ kind: 'trusted', name: m.name, trusted: m.trusted });
        return;
      case 'tools/setChoice':
        this.toolSettingsEmitter.fire({ kind: 'choice', choice: m.choice });
        return;
    }
  }

  private refuseWhileBusy(requestId: string): boolean {
    if (!this.active) return false;
    // The webview marked itself busy with this id; end it so its Send button comes back.
    this.broadcast({ type: 'chat/done', requestId });
    this.broadcast({ type: 'chat/notice', level: 'warning', text: vscode.l10n.t('An answer is still streaming. Stop it first (Escape).') });
    this.broadcast({ type: 'chat/busy', requestId: this.active.requestId });
    return true;
  }

  private endRequestWithoutTurn(requestId: string): void {
    this.broadcast({ type: 'chat/done', requestId });
  }

  private lastUser(): UserMessage | undefined {
    for (let i = this.conversation.messages.length - 1; i >= 0; i--) {
      const m = this.conversation.messages[i];
      if (m?.role === 'user') return m;
    }
    return undefined;
  }

  /** Drops everything after the last user message; false when there is none. */
  private truncateAfterLastUser(): boolean {
    const last = this.lastUser();
    if (!last) return false;
    const i = this.conversation.messages.indexOf(last);
    this.conversation.messages.splice(i + 1);
    for (const id of [...this.cards.keys()]) {
      if (!this.conversation.messages.some((x) => x.role === 'assistant' && x.toolCalls?.some((c) => c.id === id))) this.cards.delete(id);
    }
    return true;
  }

  private stopActive(): void {
    this.active?.abort.abort();
  }

  private newChat(): void {
    this.stopActive();
    this.conversation = newConversation();
    this.cards.clear();
    void this.store.setActive(undefined);
    this.broadcast(this.conversationMessage());
    this.broadcast({ type: 'chat/focus' });
  }

  private openConversation(id: string): void {
    // Already shown: reloading it from the store would stop a running answer and replace the
    // conversation with its last saved copy, so the next save would drop the newest messages.
    if (id === this.conversation.id) return;
    const c = this.store.load(id);
    if (!c) {
      const problem = this.store.problems.find((p) => p.id === id);
      this.broadcast({ type: 'chat/notice', level: 'error', text: problem ? vscode.l10n.t('This conversation cannot be opened: {0}', problem.problem) : vscode.l10n.t('This conversation no longer exists.') });
      return;
    }
    this.stopActive();
    this.conversation = c;
    this.cards.clear();
    void this.store.setActive(c.id);
    this.broadcast(this.conversationMessage());
  }

  private historyMessage(): HostMessage {
    return { type: 'chat/history', entries: this.store.list(), activeId: this.conversation.id };
  }

  /** Saves a copy of `c` (by default the shown one) after any save already under way. */
  private save(c: Conversation = this.conversation): Promise<void> {
    const snapshot = structuredClone(c);
    this.saving = this.saving
      .then(async () => {
        if (snapshot.messages.length === 0) return;
        await this.store.save(snapshot);
        if (this.store.activeId !== snapshot.id) await this.store.setActive(snapshot.id);
      })
      .catch((err: unknown) => this.s.log.error(`chat history not saved: ${err instanceof Error ? err.message : String(err)}`));
    return this.saving;
  }

  // -------------------------------------------------------------------------------------------
  // Turns

  private async runTurn(requestId: string): Promise<void> {
    const abort = new AbortController();
    this.active = { requestId, abort };
    this.broadcast({ type: 'chat/busy', requestId });
    const conversation = this.conversation;
    // Stored as the request is sent, not when the answer ends, whatever changed it (a new or
    // edited question, Continue's question, the answer Regenerate or Retry removed): a window
    // that dies mid-answer then comes back with what the user saw, never with the old question
    // or a removed answer next to the new one. The streaming answer is stored every ~2 s while
    // text arrives (loaded as stopped after a crash, its text kept) and once more at its end.
    void this.save(conversation);
    const partial = new PartialSaver(() => this.save(conversation), PARTIAL_SAVE_MS);
    const settings = readSettings();
    const defaults: RequestDefaults = { model: settings.chatModel, systemPrompt: settings.chat.systemPrompt, params: paramsFrom(settings) };
    let status: string;
    let lastError: ErrorView | undefined;
    let last: AssistantMessage | undefined;
    try {
      const backend = await getGatewayClient(this.s, 'chat');
      const outcome = await runTurn({
        backend,
        conversation,
        defaults,
        executor: this.executor,
        maxRounds: settings.tools.maxRounds,
        signal: abort.signal,
        describe: describeForView,
        words: localWords(),
        callbacks: {
          onMessage: (msg) => {
            if (msg.role !== 'assistant' || msg.status !== 'streaming') void this.save(conversation);
            if (conversation === this.conversation) this.broadcast({ type: 'chat/message', requestId, message: msg });
          },
          onDelta: (messageId, d) => {
            partial.touch();
            if (conversation === this.conversation) this.queueDelta(requestId, messageId, d);
          },
        },
      });
      status = outcome.status;
      lastError = outcome.error;
      last = outcome.last;
    } catch (err) {
      // The client could not even be built (no base URL): show it inline like any failure.
      lastError = describeForView(err);
      status = 'error';
      last = { id: newId('a'), role: 'assistant', content: '', status: 'error', requestedModel: conversation.model || defaults.model, createdAt: Date.now(), error: lastError };
      conversation.messages.push(last);
    }
    partial.end();
    if (this.active?.requestId === requestId) this.active = undefined;
    // The turn's own conversation: the user may have opened another one meanwhile.
    await this.save(conversation);
    if (conversation === this.conversation) {
      this.broadcast(status === 'error' && lastError ? { type: 'chat/error', requestId, error: lastError, message: last } : { type: 'chat/done', requestId, message: last });
    } else {
      this.broadcast({ type: 'chat/done', requestId });
    }
    this.broadcast(this.historyMessage());
    if (lastError) this.s.log.warn(`chat request failed: ${lastError.title}: ${lastError.detail}`);
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  private async loadModels(): Promise<void> {
    this.modelsLoading = true;
    this.broadcast({ type: 'chat/models', models: this.models, loading: true });
    try {
      const client = await getGatewayClient(this.s, 'chat');
      const records = await client.listModels();
      this.models = records
        .filter((r) => !isVideoModel(r))
        .map((r) => ({ id: r.id, ownedBy: r.owned_by, capabilities: r.capabilities ?? [], supportsImages: acceptsImages(r) }));
      this.modelsError = undefined;
      this.modelsLoaded = true;
    } catch (err) {
      this.modelsError = describeForView(err);
      this.s.log.warn(`model list: ${this.modelsError.title}: ${this.modelsError.detail}`);
    } finally {
      this.modelsLoading = false;
    }
    this.broadcast({ type: 'chat/models', models: this.models, loading: false, error: this.modelsError });
  }

  private async pickImages(surface: Surface): Promise<void> {
    const uris = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
    });
    if (!uris) return;
    const max = readSettings().chat.maxImageMegabytes * 1024 * 1024;
    const images: ImageAttachment[] = [];
    const problems: string[] = [];
    for (const uri of uris) {
      const name = uri.path.split('/').pop() ?? 'image';
      const mime = mimeFor(name);
      if (!mime) {
        problems.push(vscode.l10n.t('{0} is not an image.', name));
        continue;
      }
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > max) {
        problems.push(vscode.l10n.t('{0} is {1} MB; the limit is {2} MB (setting gatewayStudio.chat.maxImageMegabytes).', name, (stat.size / 1048576).toFixed(1), (max / 1048576).toFixed(1)));
        continue;
      }
      const bytes = await vscode.workspace.fs.readFile(uri);
      images.push({ name, mime, dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`, bytes: bytes.byteLength });
    }
    this.send(surface, { type: 'chat/attachments', images, problems });
  }

  private async insertAtCursor(code: string): Promise<void> {
    const editor = vscode.window.activeTextEditor ?? this.lastEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor || editor.document.isClosed) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a file and place the cursor where the code should go, then try again.'));
      return;
    }
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  }

  private async openLink(href: string): Promise<void> {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(href, true);
    } catch {
      this.broadcast({ type: 'chat/notice', level: 'warning', text: vscode.l10n.t('Not a valid link: {0}', href.slice(0, 200)) });
      return;
    }
    if (!['http', 'https', 'mailto'].includes(uri.scheme)) {
      this.broadcast({ type: 'chat/notice', level: 'warning', text: vscode.l10n.t('Only http, https and mailto links are opened from the chat; "{0}" was not.', href.slice(0, 200)) });
      return;
    }
    // VS Code asks the user before opening a domain they have not trusted yet.
    await vscode.env.openExternal(uri);
  }

  private async errorAction(a: ErrorAction): Promise<void> {
    // Retry arrives as `chat/retry` (it needs a request id); every other button is shared.
    if (a === 'retry') return;
    await runErrorAction(a);
  }

  /** Export to Markdown: asks where, never overwrites without VS Code's own confirmation. */
  async exportMarkdown(): Promise<void> {
    const c = this.conversation;
    if (c.messages.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This conversation is empty; there is nothing to export.'));
      return;
    }
    const base = (titleFor(c) || 'conversation').replace(/[^\p{L}\p{N}._ -]+/gu, '').trim().slice(0, 60) || 'conversation';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.md`) : undefined,
      filters: { Markdown: ['md'] },
      saveLabel: vscode.l10n.t('Export'),
    });
    if (!target) return;
    const md = conversationToMarkdown(c, {
      you: vscode.l10n.t('You'),
      assistant: vscode.l10n.t('Assistant'),
      tool: vscode.l10n.t('Tool'),
      stopped: vscode.l10n.t('(stopped)'),
      failed: vscode.l10n.t('(failed)'),
      reasoning: vscode.l10n.t('Reasoning'),
      untitled: vscode.l10n.t('Conversation'),
    });
    await vscode.workspace.fs.writeFile(target, Buffer.from(md, 'utf8'));
    void vscode.window.showInformationMessage(vscode.l10n.t('Conversation exported to {0}.', vscode.workspace.asRelativePath(target)));
  }

  /** The "New Chat" command. */
  newChatFromCommand(): Promise<void> {
    this.newChat();
    return Promise.resolve();
  }

  /** "Ask Gateway Studio about the selection": quotes it into the composer of every chat. */
  addContext(context: EditorContext): void {
    const msg: HostMessage = { type: 'chat/context', context, prompt: vscode.l10n.t('Explain this code.') };
    // Revealing the view for the first time may resolve it only after this call.
    if (this.surfaces.size === 0) this.orphanContexts.push(msg);
    else this.broadcast(msg);
  }

  // -------------------------------------------------------------------------------------------
  // ChatPanelApi

  postToolCall(update: ToolCallUpdate): void {
    this.cards.set(update.callId, update);
    this.broadcast({ type: 'chat/toolCall', update });
  }

  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable {
    return this.decisionEmitter.event(listener);
  }

  isVisible(): boolean {
    return [...this.surfaces].some((s) => s.visible());
  }

  setToolExecutor(executor: ToolExecutor | undefined): void {
    this.executor = executor;
  }

  postTools(tools: ToolInfo[], choice: ToolChoiceSetting): void {
    this.toolsMessage = { type: 'chat/tools', tools, choice };
    this.broadcast(this.toolsMessage);
  }

  onToolSettings(listener: (e: ToolSettingChange) => void): vscode.Disposable {
    return this.toolSettingsEmitter.event(listener);
  }

  dispose(): void {
    this.stopActive();
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
    for (const d of this.disposables) d.dispose();
  }
}

/** Least time between two saves of an answer that is still streaming. */
const PARTIAL_SAVE_MS = 2000;

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

function describeForView(err: unknown): ErrorView {
  const d = describeError(err);
  return { title: d.title, detail: d.detail, actions: [...d.actions] };
}

function localWords(): TurnWords {
  return {
    maxRounds: (n) => vscode.l10n.t('Stopped after {0} rounds of tool calls (setting gatewayStudio.tools.maxRounds). Send a message such as "continue" to let the model go on.', n),
    retried: (a, sec, why) => vscode.l10n.t('Retried (attempt {0}) after {1} s: {2}', a, sec.toFixed(1), why),
    toolNotRunLimit: 'Not run: the limit of tool-call rounds for this message was reached.',
    toolStopped: 'The user stopped this tool call before it finished.',
    toolNoResult: 'The tool gave no result.',
  };
}

function mimeFor(name: string): string | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }[ext];
}

/** Fence languages to VS Code language ids where they differ. */
function languageId(lang: string): string {
  const l = lang.toLowerCase();
  const map: Record<string, string> = { ts: 'typescript', js: 'javascript', py: 'python', sh: 'shellscript', bash: 'shellscript', shell: 'shellscript', zsh: 'shellscript', yml: 'yaml', md: 'markdown', 'c#': 'csharp', cs: 'csharp', rs: 'rust', golang: 'go', html: 'html', xml: 'xml' };
  return map[l] ?? (l || 'plaintext');
}
