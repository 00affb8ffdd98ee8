import * as l10n from '@vscode/l10n';
import {
  newId,
  type AssistantMessage,
  type Conversation,
  type ErrorView,
  type HostMessage,
  type ModelInfo,
  type ToolCallUpdate,
  type ToolMode,
  type UserMessage,
} from '../../../shared/protocol';
import { CompactionFailed } from '../../context/core/compaction';
import { ContextGuard } from '../../context/core/contextGuard';
import { ModelList } from './modelList';
import { PartialSaver } from '../../history/core/partialSave';
import { effectiveModel, type RequestDefaults } from './request';
import { assembleSystemPrompt, systemPromptFor, type PromptSnapshot } from '../../prompt/core/systemPrompt';
import type { ConversationToolCall, Question, SessionDeps, SessionSink } from './sessionDeps';
import { newConversation, type ConversationStore } from '../../history/core/store';
import type { ToolExecutor } from '../../tools/core/seam';
import { describeForView, runTurn } from './turnRunner';

/** Least time between two saves of an answer that is still streaming. */
const PARTIAL_SAVE_MS = 2000;

/**
 * The chat's conversation side, without VS Code: the shown conversation and the store behind it,
 * the one running request (others are refused while it runs), what each action does to the
 * conversation before its turn (send, regenerate or retry, edit and resend, continue), when it is
 * saved (when the request is sent, every ~2 s while an answer streams, at its end), the history,
 * the model list and the tool cards of the conversation. Everything the views should see goes to
 * the {@link SessionSink}.
 */
export class ChatSession {
  private conversation: Conversation;
  private active: { requestId: string; abort: AbortController } | undefined;
  /** The model picker's list, loaded through the same backend as the turns. */
  readonly models: ModelList;
  private executor: ToolExecutor | undefined;
  /** The last prompt snapshot taken (for the meter between requests). */
  private lastPrompt: PromptSnapshot | undefined;
  private readonly cards = new Map<string, ToolCallUpdate>();
  private saving: Promise<void> = Promise.resolve();
  private readonly store: ConversationStore;
  private readonly sink: SessionSink;
  private readonly now: () => number;
  /** The context window: limits, counting, fitting, the meter (see `contextGuard.ts`). */
  readonly context: ContextGuard;

  constructor(private readonly deps: SessionDeps) {
    this.store = deps.store;
    this.sink = deps.sink;
    this.now = deps.now ?? Date.now;
    for (const p of this.store.problems) deps.log.warn(`chat history: ${p.id}: ${p.problem}`);
    this.context = new ContextGuard({
      storage: deps.contextStorage,
      overrides: () => deps.settings().modelOverrides ?? {},
      now: this.now,
      log: (m) => deps.log.warn(m),
    });
    this.models = new ModelList(
      async () => {
        const records = await (await deps.backend()).listModels();
        this.context.setRecords(records);
        // The meter's window may come from the list.
        queueMicrotask(() => this.broadcastMeter());
        return records;
      },
      (msg) => this.sink.broadcast(msg),
      (msg) => deps.log.warn(msg),
    );
    const activeId = this.store.activeId;
    this.conversation = (activeId && this.store.load(activeId)) || newConversation(this.now());
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
    return this.active?.requestId;
  }

  /** The executor used for every later turn: its definitions are sent, its calls run. */
  setToolExecutor(executor: ToolExecutor | undefined): void {
    this.executor = executor;
  }

  // -------------------------------------------------------------------------------------------
  // Actions that start a turn

  async send(requestId: string, q: Question): Promise<void> {
    if (this.refuseWhileBusy(requestId)) return;
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
    await this.runTurn(requestId);
  }

  /** Regenerate, and Retry after a failed answer: the last question is asked again. */
  async regenerate(requestId: string): Promise<void> {
    if (this.refuseWhileBusy(requestId)) return;
    if (!this.truncateAfterLastUser()) return this.endRequestWithoutTurn(requestId);
    this.conversation.updatedAt = this.now();
    this.sink.broadcast(this.conversationMessage());
    await this.runTurn(requestId);
  }

  async editResend(requestId: string, text: string): Promise<void> {
    if (this.refuseWhileBusy(requestId)) return;
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
    if (this.refuseWhileBusy(requestId)) return;
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
    if (this.active?.requestId === requestId) this.active.abort.abort();
  }

  // -------------------------------------------------------------------------------------------
  // The conversation and the history

  newChat(): void {
    this.stopActive();
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
    this.stopActive();
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
  }

  /** The model the shown conversation's next request goes to, and what the model list says of it. */
  currentModel(): { id: string; info: ModelInfo | undefined } {
    const id = effectiveModel(this.conversation, { model: this.deps.settings().chatModel });
    return { id, info: this.models.info(id) };
  }

  /** The conversation's own model; the default model is stored as "none" so it follows the setting. */
  async setModel(model: string): Promise<void> {
    this.conversation.model = model.trim() === this.deps.settings().chatModel ? '' : model.trim();
    await this.save();
    this.broadcastMeter();
  }

  async setParams(params: Conversation['params'], systemPrompt: string | null | undefined): Promise<void> {
    this.conversation.params = params;
    if (systemPrompt !== undefined) this.conversation.systemPrompt = systemPrompt ?? undefined;
    await this.save();
    if (!this.active) this.sink.broadcast(this.conversationMessage());
  }

  /** Switches a rules file off (or on again) for the shown conversation. */
  async setRuleEnabled(id: string, enabled: boolean): Promise<void> {
    const off = new Set(this.conversation.disabledRules ?? []);
    if (enabled) off.delete(id);
    else off.add(id);
    this.conversation.disabledRules = off.size ? [...off] : undefined;
    await this.save();
    if (!this.active) this.sink.broadcast(this.conversationMessage());
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
    if (!this.active) this.sink.broadcast(this.conversationMessage());
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
  // The context window

  /** The meter for the shown conversation (none without a model). */
  contextMessages(): HostMessage[] {
    const meter = this.context.meter(this.conversation, this.requestDefaults(), this.executor);
    return meter ? [{ type: 'chat/contextWindow', meter }] : [];
  }

  private broadcastMeter(): void {
    for (const m of this.contextMessages()) this.sink.broadcast(m);
  }

  private requestDefaults(): RequestDefaults {
    const settings = this.deps.settings();
    const snapshot = this.lastPrompt;
    return {
      model: settings.chatModel,
      systemPrompt: settings.systemPrompt,
      params: settings.params,
      // The meter counts the system prompt as last assembled (see refreshPrompt).
      ...(snapshot ? { system: (own: string) => assembleSystemPrompt(snapshot, this.conversation, own) } : {}),
    };
  }

  /** The editor's state or the rules changed: the meter counts the system prompt as it is now. */
  async refreshPrompt(): Promise<void> {
    if (!this.deps.prompt) return;
    this.lastPrompt = await this.deps.prompt(this.conversation);
    if (!this.active) this.broadcastMeter();
  }

  /** The snapshot for one request, kept for the meter. */
  private readonly takePrompt = async (c: Conversation): Promise<PromptSnapshot> => {
    const snapshot = await this.deps.prompt!(c);
    this.lastPrompt = snapshot;
    return snapshot;
  };

  /** Which tools the shown conversation's model gets from now on (remembered per model). */
  setToolMode(mode: ToolMode): void {
    const model = this.currentModel().id;
    if (!model) return;
    this.context.setToolMode(model, mode);
    this.broadcastMeter();
  }

  /** The context window's error buttons and the Compact conversation action. */
  async contextAction(action: 'compact' | 'toolsOff' | 'toolsReadOnly'): Promise<void> {
    if (action === 'toolsOff') return this.setToolMode('none');
    if (action === 'toolsReadOnly') return this.setToolMode('readOnly');
    return this.compact();
  }

  /**
   * Summarises the turns before the latest user message now. A failed summary says so and leaves
   * the conversation as it was; the messages themselves are never changed.
   */
  async compact(): Promise<void> {
    if (this.active) {
      this.sink.broadcast({
        type: 'chat/notice',
        level: 'warning',
        text: l10n.t('An answer is still streaming. Stop it first (Escape).'),
      });
      return;
    }
    const conversation = this.conversation;
    const abort = new AbortController();
    const requestId = newId('r');
    this.active = { requestId, abort };
    this.sink.broadcast({ type: 'chat/busy', requestId });
    try {
      const backend = await this.deps.backend();
      const changed = await this.context.compact(conversation, this.requestDefaults(), backend, abort.signal);
      if (changed) {
        conversation.updatedAt = this.now();
        await this.save(conversation);
        this.sink.broadcast({
          type: 'chat/compacted',
          conversationId: conversation.id,
          compaction: conversation.compaction,
        });
        this.sink.broadcast({
          type: 'chat/notice',
          level: 'info',
          text: l10n.t(
            'Earlier conversation summarised: {0} messages are sent as one summary from now on.',
            conversation.compaction?.messageCount ?? 0,
          ),
        });
      } else {
        this.sink.broadcast({
          type: 'chat/notice',
          level: 'info',
          text: l10n.t('Nothing to compact: only the latest message is left.'),
        });
      }
    } catch (err) {
      const detail = err instanceof CompactionFailed ? err.message : describeForView(err).detail;
      this.sink.broadcast({
        type: 'chat/notice',
        level: 'error',
        text: `${l10n.t('Compaction failed.')} ${detail} ${l10n.t('The conversation was left as it was.')}`,
      });
    } finally {
      if (this.active?.requestId === requestId) this.active = undefined;
      this.sink.broadcast({ type: 'chat/done', requestId });
      this.broadcastMeter();
    }
  }

  historyMessage(): HostMessage {
    return { type: 'chat/history', entries: this.store.list(), activeId: this.conversation.id };
  }

  // -------------------------------------------------------------------------------------------
  // Tool cards

  /**
   * Shows or updates a tool card; kept so that a reloaded view gets it again ({@link cardMessages}).
   * A card of another conversation (a turn stopped when the user left it) is dropped: the cards
   * shown are the shown conversation's, and the call's outcome is in its own conversation's
   * messages, from which its card is drawn when that conversation is opened again.
   */
  postToolCall(posted: ConversationToolCall): void {
    const { conversationId, ...update } = posted;
    if (conversationId !== this.conversation.id) return;
    this.cards.set(update.callId, update);
    this.sink.broadcast({ type: 'chat/toolCall', update });
  }

  cardMessages(): HostMessage[] {
    return [...this.cards.values()].map((update) => ({ type: 'chat/toolCall', update }));
  }

  /**
   * Removes the message `messageId` and everything after it (Restore with "cut the conversation
   * back"); false while an answer runs or when the message is not in the shown conversation.
   */
  async cutFrom(messageId: string): Promise<boolean> {
    if (this.active) return false;
    const i = this.conversation.messages.findIndex((m) => m.id === messageId);
    // An answer always follows a question, so the conversation keeps at least that one.
    if (i < 1) return false;
    this.conversation.messages.splice(i);
    for (const id of [...this.cards.keys()]) {
      if (!this.conversation.messages.some((x) => x.role === 'assistant' && x.toolCalls?.some((c) => c.id === id)))
        this.cards.delete(id);
    }
    this.conversation.updatedAt = this.now();
    await this.save();
    this.sink.broadcast(this.conversationMessage());
    this.sink.broadcast(this.historyMessage());
    return true;
  }

  /** Stops the running answer, if any. */
  dispose(): void {
    this.stopActive();
  }

  // -------------------------------------------------------------------------------------------
  // Turns

  private refuseWhileBusy(requestId: string): boolean {
    if (!this.active) return false;
    // The webview marked itself busy with this id; end it so its Send button comes back.
    this.sink.broadcast({ type: 'chat/done', requestId });
    this.sink.broadcast({
      type: 'chat/notice',
      level: 'warning',
      text: l10n.t('An answer is still streaming. Stop it first (Escape).'),
    });
    this.sink.broadcast({ type: 'chat/busy', requestId: this.active.requestId });
    return true;
  }

  private endRequestWithoutTurn(requestId: string): void {
    this.sink.broadcast({ type: 'chat/done', requestId });
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
      if (!this.conversation.messages.some((x) => x.role === 'assistant' && x.toolCalls?.some((c) => c.id === id)))
        this.cards.delete(id);
    }
    return true;
  }

  private stopActive(): void {
    this.active?.abort.abort();
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
      .catch((err: unknown) =>
        this.deps.log.error(`chat history not saved: ${err instanceof Error ? err.message : String(err)}`),
      );
    return this.saving;
  }

  private async runTurn(requestId: string): Promise<void> {
    const abort = new AbortController();
    this.active = { requestId, abort };
    this.sink.broadcast({ type: 'chat/busy', requestId });
    const conversation = this.conversation;
    // Stored as the request is sent, not when the answer ends, whatever changed it (a new or
    // edited question, Continue's question, the answer Regenerate or Retry removed): a window
    // that dies mid-answer then comes back with what the user saw, never with the old question
    // or a removed answer next to the new one. The streaming answer is stored every ~2 s while
    // text arrives (loaded as stopped after a crash, its text kept) and once more at its end.
    void this.save(conversation);
    const partial = new PartialSaver(() => this.save(conversation), PARTIAL_SAVE_MS, this.now);
    const settings = this.deps.settings();
    const defaults: RequestDefaults = {
      model: settings.chatModel,
      systemPrompt: settings.systemPrompt,
      params: settings.params,
    };
    let status: string;
    let lastError: ErrorView | undefined;
    let last: AssistantMessage | undefined;
    const compactedBefore = conversation.compaction;
    try {
      const backend = await this.deps.backend();
      await this.context.ensureRecords(() => backend.listModels(abort.signal));
      const outcome = await runTurn({
        backend,
        conversation,
        defaults,
        executor: this.executor,
        context: this.context.forTurn(conversation, defaults, backend),
        maxRounds: settings.maxRounds,
        signal: abort.signal,
        now: this.now,
        ...(this.deps.prompt ? { prompt: this.takePrompt } : {}),
        callbacks: {
          onMessage: (msg) => {
            if (msg.role !== 'assistant' || msg.status !== 'streaming') void this.save(conversation);
            if (conversation === this.conversation)
              this.sink.broadcast({ type: 'chat/message', requestId, message: msg });
          },
          onDelta: (messageId, d) => {
            partial.touch();
            if (conversation === this.conversation) this.sink.delta(requestId, messageId, d);
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
      last = {
        id: newId('a'),
        role: 'assistant',
        content: '',
        status: 'error',
        requestedModel: effectiveModel(conversation, defaults),
        createdAt: this.now(),
        error: lastError,
      };
      conversation.messages.push(last);
    }
    partial.end();
    if (this.active?.requestId === requestId) this.active = undefined;
    // The turn's own conversation: the user may have opened another one meanwhile.
    await this.save(conversation);
    if (conversation === this.conversation) {
      this.sink.broadcast(
        status === 'error' && lastError
          ? { type: 'chat/error', requestId, error: lastError, message: last }
          : { type: 'chat/done', requestId, message: last },
      );
    } else {
      this.sink.broadcast({ type: 'chat/done', requestId });
    }
    this.sink.broadcast(this.historyMessage());
    if (conversation.compaction !== compactedBefore && conversation === this.conversation)
      this.sink.broadcast({
        type: 'chat/compacted',
        conversationId: conversation.id,
        compaction: conversation.compaction,
      });
    if (conversation === this.conversation) this.broadcastMeter();
    if (lastError) this.deps.log.warn(`chat request failed: ${lastError.title}: ${lastError.detail}`);
  }
}
