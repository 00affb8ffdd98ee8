import * as l10n from '@vscode/l10n';
import {
  newId,
  type Conversation,
  type HostMessage,
  type ModelInfo,
  type ToolMode,
  type UserMessage,
} from '../../../shared/protocol';
import type { ContextGuard } from '../../context/core/contextGuard';
import { newConversation, type ConversationStore } from '../../history/core/store';
import { systemPromptFor } from '../../prompt/core/systemPrompt';
import { ConversationSaver } from './conversationSaver';
import { ModelList } from './modelList';
import { effectiveModel } from '../../conversation/core/request';
import { RequestSlot } from './requestSlot';
import { SessionContext } from './sessionContext';
import type { Question, SessionDeps } from './sessionDeps';
import type { ConversationToolCall, ToolExecutor } from '../../tools/core/seam';
import type { SessionSink } from '../../conversation/core/routes';
import { runSessionTurn, type TurnRequest } from './sessionTurn';
import { DEFAULT_AGENT_ID } from '../../agents/core/agent';
import { ToolCards } from './toolCards';

/**
 * The chat's conversation side, without VS Code: the shown conversation and the store behind it,
 * the one running request (others are refused while it runs), what each action does to the
 * conversation before its turn (send, regenerate or retry, edit and resend, continue), when it is
 * saved (when the request is sent, every ~2 s while an answer streams, at its end), the history,
 * the model list and the tool cards of the conversation. Everything the views should see goes to
 * the {@link SessionSink}. The turn itself is `sessionTurn.ts`'s, the context window
 * `sessionContext.ts`'s.
 */
export class ChatSession {
  private conversation: Conversation;
  /** The one request running (a turn or a compaction). */
  private readonly slot: RequestSlot;
  /** The model picker's list, loaded through the same backend as the turns. */
  readonly models: ModelList;
  private executor: ToolExecutor | undefined;
  private readonly cards: ToolCards;
  private readonly saver: ConversationSaver;
  private readonly store: ConversationStore;
  private readonly sink: SessionSink;
  private readonly now: () => number;
  /** The context window in the session: the meter, the tool mode, compaction. */
  private readonly window: SessionContext;

  constructor(private readonly deps: SessionDeps) {
    this.store = deps.store;
    this.sink = deps.sink;
    this.now = deps.now ?? Date.now;
    this.slot = new RequestSlot(deps.sink);
    this.cards = new ToolCards((m) => deps.sink.broadcast(m));
    this.saver = new ConversationSaver(deps.store, deps.log, (m) => deps.sink.broadcast(m));
    for (const p of this.store.problems) deps.log.warn(`chat history: ${p.id}: ${p.problem}`);
    this.window = new SessionContext({
      deps,
      slot: this.slot,
      now: this.now,
      shown: () => this.conversation,
      executor: () => this.executor,
      save: (c) => this.save(c),
    });
    this.models = new ModelList(
      async () => {
        const records = await (await deps.backend()).listModels();
        this.window.guard.setRecords(records);
        // The meter's window may come from the list.
        queueMicrotask(() => this.broadcastMeter());
        return records;
      },
      (msg) => this.sink.broadcast(msg),
      deps,
    );
    const activeId = this.store.activeId;
    this.conversation = (activeId && this.store.load(activeId)) || newConversation(this.now());
  }

  /** The context window: limits, counting, fitting, the meter (see `contextGuard.ts`). */
  get context(): ContextGuard {
    return this.window.guard;
  }

  /** The conversation shown now (the session's own object: read it, do not change it). */
  get shown(): Conversation {
    return this.conversation;
  }

  get conversationId(): string {
    return this.conversation.id;
  }

  /** The request whose answer is running, if any. */
  get busyRequestId(): string | undefined {
    return this.slot.busyRequestId;
  }

  /** The executor used for every later turn: its definitions are sent, its calls run. */
  setToolExecutor(executor: ToolExecutor | undefined): void {
    this.executor = executor;
  }

  // -------------------------------------------------------------------------------------------
  // Actions that start a turn

  async send(requestId: string, q: Question): Promise<void> {
    if (this.slot.refuse(requestId)) return;
    const user: UserMessage = {
      id: newId('u'),
      role: 'user',
      text: q.text,
      images: q.images,
      contexts: q.contexts,
      ...(q.attachments?.length ? { attachments: q.attachments } : {}),
      createdAt: this.now(),
    };
    this.conversation.messages.push(user);
    this.conversation.updatedAt = this.now();
    this.sink.broadcast({ type: 'chat/message', requestId, message: user });
    await this.runTurn(requestId, q);
  }

  /** Regenerate, and Retry after a failed answer: the last question is asked again. */
  async regenerate(requestId: string): Promise<void> {
    if (this.slot.refuse(requestId)) return;
    if (!this.truncateAfterLastUser()) return this.endRequestWithoutTurn(requestId);
    this.conversation.updatedAt = this.now();
    this.sink.broadcast(this.conversationMessage());
    await this.runTurn(requestId);
  }

  async editResend(requestId: string, text: string): Promise<void> {
    if (this.slot.refuse(requestId)) return;
    const last = this.lastUser();
    if (!last) return this.endRequestWithoutTurn(requestId);
    last.text = text;
    this.truncateAfterLastUser();
    this.conversation.updatedAt = this.now();
    this.sink.broadcast(this.conversationMessage());
    await this.runTurn(requestId);
  }

  /** Continue an answer that was cut off: asks the model to go on where it stopped. */
  async continue(requestId: string): Promise<void> {
    if (this.slot.refuse(requestId)) return;
    const text = l10n.t('Continue exactly where your last answer stopped.');
    const pending = this.conversation.messages.at(-1);
    // Its question is stored when sent, so a window that died before the answer came back
    // with it unanswered: Continue then asks it again rather than adding a second one.
    if (pending?.role === 'user' && pending.text === text) {
      this.conversation.updatedAt = this.now();
      await this.runTurn(requestId);
      return;
    }
    const user: UserMessage = { id: newId('u'), role: 'user', text, images: [], contexts: [], createdAt: this.now() };
    this.conversation.messages.push(user);
    this.conversation.updatedAt = this.now();
    this.sink.broadcast({ type: 'chat/message', requestId, message: user });
    await this.runTurn(requestId);
  }

  cancel(requestId: string): void {
    this.slot.cancel(requestId);
  }

  // -------------------------------------------------------------------------------------------
  // The conversation and the history

  newChat(): void {
    this.slot.stop();
    void this.store.setActive(undefined);
    this.show(newConversation(this.now()));
    this.sink.broadcast({ type: 'chat/focus' });
    this.broadcastMeter();
  }

  open(id: string): void {
    // Already shown: reloading it from the store would stop a running answer and replace the
    // conversation with its last saved copy, so the next save would drop the newest messages.
    if (id === this.conversation.id) return;
    const c = this.store.load(id);
    if (!c) {
      const problem = this.store.problems.find((p) => p.id === id);
      this.sink.broadcast({
        type: 'chat/notice',
        level: 'error',
        text: problem
          ? l10n.t('This conversation cannot be opened: {0}', problem.problem)
          : l10n.t('This conversation no longer exists.'),
      });
      return;
    }
    this.slot.stop();
    void this.store.setActive(c.id);
    this.show(c);
    this.broadcastMeter();
  }

  /** `c` is the conversation shown from now on: the views get it, then the host side hears of it. */
  private show(c: Conversation): void {
    this.conversation = c;
    this.cards.clear();
    this.sink.broadcast(this.conversationMessage());
    this.deps.events?.conversationShown(c.id);
    // Scoped rules and agent instructions are the new conversation's: its chips, not the last one's.
    void this.refreshPrompt().catch(() => undefined);
  }

  /** The model the shown conversation's next request goes to, and what the model list says of it. */
  currentModel(): { id: string; info: ModelInfo | undefined } {
    const id = effectiveModel(this.conversation, this.window.turnDefaults());
    return { id, info: this.models.info(id) };
  }

  /** The conversation's own model; the default model is stored as "none" so it follows the setting. */
  async setModel(model: string): Promise<void> {
    this.conversation.model = model.trim() === this.deps.settings().chatModel ? '' : model.trim();
    await this.save();
    this.broadcastMeter();
  }

  /** The agent of the conversation's next turns, stored with it (none stored: the Agent). */
  async setAgent(id: string): Promise<void> {
    this.conversation.agent = id === DEFAULT_AGENT_ID ? undefined : id;
    await this.save();
  }

  async setParams(params: Conversation['params'], systemPrompt: string | null | undefined): Promise<void> {
    this.conversation.params = params;
    if (systemPrompt !== undefined) this.conversation.systemPrompt = systemPrompt ?? undefined;
    await this.save();
    if (!this.slot.busy) this.sink.broadcast(this.conversationMessage());
  }

  /** Switches a rules file off (or on again) for the shown conversation. */
  async setRuleEnabled(id: string, enabled: boolean): Promise<void> {
    const off = new Set(this.conversation.disabledRules ?? []);
    if (enabled) off.delete(id);
    else off.add(id);
    this.conversation.disabledRules = off.size ? [...off] : undefined;
    await this.save();
    if (!this.slot.busy) this.sink.broadcast(this.conversationMessage());
    await this.refreshPrompt();
  }

  /** The exact system message the next request of the shown conversation would carry. */
  nextSystemPrompt(): Promise<string> {
    return systemPromptFor(this.conversation, this.deps.settings().systemPrompt, this.deps.prompt);
  }

  async rename(id: string, title: string): Promise<void> {
    const renamed = await this.store.rename(id, title);
    if (renamed && renamed.id === this.conversation.id) this.conversation.title = renamed.title;
    this.sink.broadcast(this.historyMessage());
  }

  async delete(id: string): Promise<void> {
    await this.store.delete(id);
    if (id === this.conversation.id) this.newChat();
    this.sink.broadcast(this.historyMessage());
  }

  /** The settings changed: the shown defaults follow (not mid-answer) and the model list is stale. */
  settingsChanged(): void {
    if (!this.slot.busy) this.sink.broadcast(this.conversationMessage());
    this.models.invalidate();
    this.broadcastMeter();
  }

  conversationMessage(): Extract<HostMessage, { type: 'chat/conversation' }> {
    const s = this.deps.settings();
    return {
      type: 'chat/conversation',
      conversation: this.conversation,
      defaults: s.params,
      defaultModel: s.chatModel,
      defaultSystemPrompt: s.systemPrompt,
    };
  }

  // -------------------------------------------------------------------------------------------
  // The context window (sessionContext.ts)

  /** The meter for the shown conversation (none without a model). */
  contextMessages(): HostMessage[] {
    return this.window.messages();
  }

  private broadcastMeter(): void {
    this.window.broadcastMeter();
  }

  /** The editor's state or the rules changed: the meter counts the system prompt as it is now. */
  refreshPrompt(): Promise<void> {
    return this.window.refreshPrompt();
  }

  /** Which tools the shown conversation's model gets from now on (remembered per model). */
  setToolMode(mode: ToolMode): void {
    this.window.setToolMode(mode);
  }

  /** The context window's error buttons and the Compact conversation action. */
  contextAction(action: 'compact' | 'toolsOff' | 'toolsReadOnly'): Promise<void> {
    return this.window.action(action);
  }

  /** Summarises the turns before the latest user message now (see {@link SessionContext.compact}). */
  compact(): Promise<void> {
    return this.window.compact();
  }

  historyMessage(): Extract<HostMessage, { type: 'history/list' }> {
    return { type: 'history/list', entries: this.store.list(), activeId: this.conversation.id };
  }

  // -------------------------------------------------------------------------------------------
  // Tool cards

  /**
   * Shows or updates a tool card, kept so that a reloaded view gets it again ({@link cardMessages});
   * a card of a conversation not shown is dropped (see {@link ToolCards.post}).
   */
  postToolCall(posted: ConversationToolCall): void {
    this.cards.post(posted, this.conversation.id);
  }

  cardMessages(): HostMessage[] {
    return this.cards.messages();
  }

  /**
   * Removes the message `messageId` and everything after it (Restore with "cut the conversation
   * back"); false while an answer runs or when the message is not in the shown conversation.
   */
  async cutFrom(messageId: string): Promise<boolean> {
    if (this.slot.busy) return false;
    const i = this.conversation.messages.findIndex((m) => m.id === messageId);
    // An answer always follows a question, so the conversation keeps at least that one.
    if (i < 1) return false;
    this.conversation.messages.splice(i);
    this.cards.keepCallsOf(this.conversation);
    this.conversation.updatedAt = this.now();
    await this.save();
    this.sink.broadcast(this.conversationMessage());
    this.sink.broadcast(this.historyMessage());
    return true;
  }

  /** Stops the running answer, if any. */
  dispose(): void {
    this.slot.stop();
  }

  // -------------------------------------------------------------------------------------------
  // Turns

  /** Ends a request that asks nothing (a `/command` whose input the user cancelled): the page gets its text back. */
  endRequestWithoutTurn(requestId: string): void {
    this.sink.broadcast({ type: 'chat/done', requestId });
  }

  private lastUser(): UserMessage | undefined {
    return [...this.conversation.messages].reverse().find((m): m is UserMessage => m.role === 'user');
  }

  /** Drops everything after the last user message; false when there is none. */
  private truncateAfterLastUser(): boolean {
    const last = this.lastUser();
    if (!last) return false;
    const i = this.conversation.messages.indexOf(last);
    this.conversation.messages.splice(i + 1);
    this.cards.keepCallsOf(this.conversation);
    return true;
  }

  /** Saves `c` (by default the shown one) after any save already under way (see ConversationSaver). */
  private save(c: Conversation = this.conversation, dirtyFrom?: number): Promise<void> {
    return this.saver.save(c, dirtyFrom);
  }

  private runTurn(requestId: string, q?: TurnRequest): Promise<void> {
    return runSessionTurn(
      {
        deps: this.deps,
        slot: this.slot,
        context: this.window,
        now: this.now,
        executor: () => this.executor,
        isShown: (c) => c === this.conversation,
        save: (c, dirtyFrom) => this.save(c, dirtyFrom),
        historyMessage: () => this.historyMessage(),
      },
      this.conversation,
      requestId,
      q,
    );
  }
}
