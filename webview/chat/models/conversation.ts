/**
 * The conversation shown: its settings, its messages (one signal each, so an update to one answer
 * renders that answer alone), the log's rows, whether a request runs, and the requests themselves.
 * The `chat/*` host messages touch other capabilities too; app.ts composes those (chatRoutes.ts).
 */
import { computed, signal, type Signal } from '@preact/signals';
import { newId } from '../../../src/shared/ids';
import { effectiveModel } from '../../../src/shared/model';
import type {
  AnswerCost,
  ChatMessage,
  ChatParams,
  Conversation,
  ErrorView,
  ParamOverrides,
  WebviewMessage,
} from '../../../src/shared/protocol';
import { afterRender, announce, els, live, post } from '../runtime';
import { scrollPin } from '../scrollPin';
import { windowStart } from './logWindow';
import type { Translate } from './strings';

/** The conversation without its messages (those live in `messages`, one signal each). */
export interface ConversationMeta {
  id: string;
  model: string;
  systemPrompt: string | undefined;
  params: ParamOverrides;
  /** Rules files switched off for this conversation. */
  disabledRules: string[];
}

/** Log rows that are not messages have ids no message can have (ids are non-empty strings). */
export const ERROR_ROW = '\u0000error';
export const CARD_ROW = '\u0000card:';
/** Enough for a short answer whole and the start of a long one, without minutes of speech. */
const ANNOUNCE_CHARS = 1000;

export function createConversationModel({ t }: { t: Translate }) {
  const meta = signal<ConversationMeta | undefined>(undefined);
  const id = computed(() => meta.value?.id);
  const defaults = signal<ChatParams | undefined>(undefined);
  const defaultModel = signal('');
  const defaultSystemPrompt = signal('');
  /** Bumped on every conversation the host sends: open panels built from it start over. */
  const version = signal(0);
  /** The log's rows in order: message ids, plus ERROR_ROW and CARD_ROW+callId rows. */
  const rows = signal<string[]>([]);
  const messages = new Map<string, Signal<ChatMessage>>();
  /**
   * How many of the oldest rows are not mounted: an opened long conversation mounts its newest
   * screenful only, and earlier rows when the user scrolls up to them or asks for them all
   * (MessageList.tsx). A log of 2,000 messages then costs what its window costs at every update.
   */
  const earlier = signal(0);
  const standaloneError = signal<{ error: ErrorView; requestId: string } | undefined>(undefined);
  const busyRequestId = signal<string | undefined>(undefined);
  const busy = computed(() => busyRequestId.value !== undefined);
  let lastRequestId: string | undefined;

  const currentModel = computed(() => effectiveModel(meta.value?.model, defaultModel.value));
  /** Answers are shown as formatted JSON when the conversation asks for json_object. */
  const jsonMode = computed(
    () => (meta.value?.params.response_format ?? defaults.value?.response_format) === 'json_object',
  );
  /**
   * Where the per-message buttons go, in one pass over the log (each message then compares its
   * own id, so a change re-renders only the buttons whose answer changed).
   */
  const positions = computed(() => {
    let lastUser: string | undefined;
    let lastAssistant: string | undefined;
    let lastRole: ChatMessage['role'] | undefined;
    let total = 0;
    const costs: AnswerCost[] = [];
    for (const rowId of rows.value) {
      const m = messages.get(rowId)?.value;
      if (!m) continue;
      lastRole = m.role;
      if (m.role === 'user') {
        lastUser = m.id;
        // An answer to an earlier question is not the one Regenerate or Continue would replace.
        lastAssistant = undefined;
      } else if (m.role === 'assistant') {
        lastAssistant = m.id;
        total += m.usage?.total_tokens ?? 0;
        if (m.cost) costs.push(m.cost);
      }
    }
    // A window that died before the answer came leaves the last question unanswered; the host's
    // regenerate answers it (Edit and resend alone would make the user retype or re-confirm it).
    return { lastUser, lastAssistant, unanswered: lastRole === 'user', total, costs };
  });
  const lastUserId = computed(() => positions.value.lastUser);
  const lastAssistantId = computed(() => positions.value.lastAssistant);
  const unanswered = computed(() => positions.value.unanswered);
  const totalTokens = computed(() => positions.value.total);
  /** The costs of the answers, in order, for the header's total. */
  const answerCosts = computed(() => positions.value.costs);

  /** The signal of one message, made on first use. */
  function messageSignal(messageId: string, m: ChatMessage): Signal<ChatMessage> {
    let s = messages.get(messageId);
    if (!s) {
      s = signal(m);
      messages.set(messageId, s);
    } else s.value = m;
    return s;
  }

  /**
   * Shows `c` (another conversation, or the same one sent again). Another conversation gets new
   * message components (the log is keyed by conversation id); the same one sent again keeps them,
   * and each re-renders only if its message changed. Returns the id shown before.
   */
  function show(c: Conversation, d: ChatParams, model: string, systemPrompt: string): string | undefined {
    const previous = meta.value?.id;
    if (previous !== c.id) messages.clear();
    const ids = new Set(c.messages.map((m) => m.id));
    for (const messageId of [...messages.keys()]) if (!ids.has(messageId)) messages.delete(messageId);
    for (const m of c.messages) messageSignal(m.id, m);
    meta.value = {
      id: c.id,
      model: c.model,
      systemPrompt: c.systemPrompt,
      params: c.params,
      disabledRules: c.disabledRules ?? [],
    };
    defaults.value = d;
    defaultModel.value = model;
    defaultSystemPrompt.value = systemPrompt;
    version.value++;
    standaloneError.value = undefined;
    rows.value = c.messages.map((m) => m.id);
    const shown = c.model || model;
    // While a request runs, its whole turn is mounted however long: its deltas and cards need
    // their rows. The same conversation sent again keeps what the user had scrolled back to.
    const running =
      busyRequestId.value !== undefined || c.messages.some((m) => m.role === 'assistant' && m.status === 'streaming');
    let start = windowStart(c.messages);
    if (running) {
      let question = c.messages.length - 1;
      while (question > 0 && c.messages[question]?.role !== 'user') question--;
      start = Math.min(start, Math.max(0, question));
    }
    earlier.value = previous === c.id ? Math.min(earlier.peek(), start) : start;
    afterRender(() => {
      if (els.model) els.model.value = shown;
      scrollPin.toEnd(previous !== c.id);
    });
    return previous;
  }

  /** Adds or updates one message; false when it was not taken (no conversation, a stream copy). */
  function upsert(m: ChatMessage): boolean {
    if (!meta.value) return false;
    const existing = messages.get(m.id);
    // While an answer streams, its text comes as deltas; a repeated "streaming" copy changes nothing.
    if (existing && live.has(m.id) && m.role === 'assistant' && m.status === 'streaming') return false;
    // An answer's cost comes on its own (chat/cost), and may come before the answer's last copy
    // (chat/done), which the host built before the cost was known: the cost stays.
    const had = existing?.peek();
    if (m.role === 'assistant' && !m.cost && had?.role === 'assistant' && had.cost) m = { ...m, cost: had.cost };
    messageSignal(m.id, m);
    if (!existing) rows.value = [...rows.value, m.id];
    // The user's own new message brings the end back into view. Anything else is followed by the
    // log's scroll anchor alone (scrollPin.ts): setting scrollTop from scrollHeight here laid out
    // the whole log at every update, 28 ms with 2,000 messages.
    if (!existing && m.role === 'user') afterRender(() => scrollPin.toEnd(true));
    return true;
  }

  /** An answer's cost, known after it ended; ignored for a message this page does not have. */
  function setCost(conversationId: string, messageId: string, cost: AnswerCost): void {
    if (meta.value?.id !== conversationId) return;
    const s = messages.get(messageId);
    const m = s?.peek();
    if (s && m?.role === 'assistant') s.value = { ...m, cost };
  }

  function delta(messageId: string, content: string | undefined, reasoning: string | undefined): void {
    const l = live.get(messageId);
    if (!l) return;
    if (content) l.renderer.append(content);
    if (reasoning) {
      l.reasoning.append(reasoning);
      l.details.hidden = false;
    }
    // The stored copy follows along without a render (nothing shown depends on it mid-stream).
    const m = messages.get(messageId)?.peek();
    if (m?.role === 'assistant') {
      if (content) m.content += content;
      if (reasoning) m.reasoning = (m.reasoning ?? '') + reasoning;
    }
    // No scrolling here: the log's scroll anchor keeps it at the end (scrollPin.ts).
  }

  function showStandaloneError(error: ErrorView, requestId: string): void {
    standaloneError.value = { error, requestId };
    rows.value = [...rows.value.filter((r) => r !== ERROR_ROW), ERROR_ROW];
    afterRender(scrollToEnd);
  }

  /** A request ended: the panel is no longer busy with it. */
  function ended(requestId: string): void {
    if (busyRequestId.value === requestId) busyRequestId.value = undefined;
  }

  /** Sends a request unless one is running; the panel is busy until the host says otherwise. */
  function request(msg: Extract<WebviewMessage, { requestId: string }>): void {
    if (busyRequestId.value) return;
    lastRequestId = msg.requestId;
    busyRequestId.value = msg.requestId;
    post(msg);
  }

  function stop(): void {
    const running = busyRequestId.value;
    if (running) post({ type: 'chat/cancel', requestId: running });
  }

  /** The model box changed: the conversation uses it (the default is stored as none). */
  function setModel(model: string): void {
    const c = meta.value;
    if (c) meta.value = { ...c, model: model === defaultModel.value ? '' : model };
    post({ type: 'chat/setModel', model });
  }

  /** What the live region reads when an answer ends: the answer itself, cut if it is long. */
  function announceAnswer(m: ChatMessage | undefined): void {
    if (m?.role === 'assistant' && m.status === 'stopped') return announce(t('Answer stopped.'));
    const md = m ? document.querySelector(`article[data-message-id="${CSS.escape(m.id)}"] .md`) : null;
    const text = (md?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) return announce(t('Answer finished.'));
    const cut =
      text.length > ANNOUNCE_CHARS
        ? t('{0} (the rest is in the conversation)', `${text.slice(0, ANNOUNCE_CHARS)}…`)
        : text;
    announce(t('Answer finished: {0}', cut));
  }

  function scrollToEnd(): void {
    scrollPin.toEnd();
  }

  /** Follows the end once the current render is in the DOM (a tool card, a late notice). */
  function scrollToEndSoon(): void {
    afterRender(scrollToEnd);
  }

  return {
    meta,
    id,
    defaults,
    defaultModel,
    defaultSystemPrompt,
    version,
    rows,
    messages,
    earlier,
    standaloneError,
    busyRequestId,
    busy,
    currentModel,
    jsonMode,
    lastUserId,
    lastAssistantId,
    unanswered,
    totalTokens,
    answerCosts,
    show,
    setCost,
    upsert,
    delta,
    showStandaloneError,
    ended,
    request,
    regenerate: (): void => request({ type: 'chat/regenerate', requestId: newId('r') }),
    continueAnswer: (): void => request({ type: 'chat/continue', requestId: newId('r') }),
    retry: (): void => request({ type: 'chat/retry', requestId: newId('r') }),
    lastRequest: (): string | undefined => lastRequestId,
    stop,
    setModel,
    announceAnswer,
    scrollToEnd,
    scrollToEndSoon,
  };
}

export type ConversationModel = ReturnType<typeof createConversationModel>;
