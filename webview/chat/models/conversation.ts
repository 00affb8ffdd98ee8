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
  ConversationCaps,
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
  /** Its own spend caps (the gear panel's fields). */
  caps?: ConversationCaps | undefined;
  /** The agent its turns run as; undefined: Agent. */
  agent?: string;
}

/** Log rows that are not messages have ids no message can have (ids are non-empty strings). */
export const ERROR_ROW = '\u0000error';
export const CARD_ROW = '\u0000card:';
/** Enough for a short answer whole and the start of a long one, without minutes of speech. */
const ANNOUNCE_CHARS = 1000;

/** The conversation's signals: its settings, the log's rows and messages, and the running request. */
function conversationState() {
  const meta = signal<ConversationMeta | undefined>(undefined);
  const defaultModel = signal('');
  const defaults = signal<ChatParams | undefined>(undefined);
  const busyRequestId = signal<string | undefined>(undefined);
  return {
    meta,
    id: computed(() => meta.value?.id),
    defaults,
    defaultModel,
    defaultSystemPrompt: signal(''),
    /** Bumped on every conversation the host sends: open panels built from it start over. */
    version: signal(0),
    /** The log's rows in order: message ids, plus ERROR_ROW and CARD_ROW+callId rows. */
    rows: signal<string[]>([]),
    messages: new Map<string, Signal<ChatMessage>>(),
    /**
     * How many of the oldest rows are not mounted: an opened long conversation mounts its newest
     * screenful only, and earlier rows when the user scrolls up to them or asks for them all
     * (MessageList.tsx). A log of 2,000 messages then costs what its window costs at every update.
     */
    earlier: signal(0),
    standaloneError: signal<{ error: ErrorView; requestId: string } | undefined>(undefined),
    busyRequestId,
    busy: computed(() => busyRequestId.value !== undefined),
    currentModel: computed(() => effectiveModel(meta.value?.model, defaultModel.value)),
    /** Answers are shown as formatted JSON when the conversation asks for json_object. */
    jsonMode: computed(() => (meta.value?.params.response_format ?? defaults.value?.response_format) === 'json_object'),
  };
}

type ConversationState = ReturnType<typeof conversationState>;

/**
 * Where the per-message buttons go, in one pass over the log (each message then compares its
 * own id, so a change re-renders only the buttons whose answer changed).
 */
function logPositions({ rows, messages }: ConversationState) {
  const positions = computed(() => {
    let lastUser: string | undefined;
    let lastAssistant: string | undefined;
    let lastRole: ChatMessage['role'] | undefined;
    let total = 0;
    const costs: AnswerCost[] = [];
    /** The agent of each cost (`agent` when the answer named none). */
    const agents: string[] = [];
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
        if (m.cost) {
          costs.push(m.cost);
          agents.push(m.agent ?? 'agent');
        }
      }
    }
    // A window that died before the answer came leaves the last question unanswered; the host's
    // regenerate answers it (Edit and resend alone would make the user retype or re-confirm it).
    return { lastUser, lastAssistant, unanswered: lastRole === 'user', total, costs, agents };
  });
  return {
    lastUserId: computed(() => positions.value.lastUser),
    lastAssistantId: computed(() => positions.value.lastAssistant),
    unanswered: computed(() => positions.value.unanswered),
    totalTokens: computed(() => positions.value.total),
    /** The costs of the answers, in order, for the header's total. */
    answerCosts: computed(() => positions.value.costs),
    /** The agent that gave each of those costs, in the same order (the header's shares). */
    costAgents: computed(() => positions.value.agents),
  };
}

/** The signal of one message, made on first use. */
function messageSignal(messages: Map<string, Signal<ChatMessage>>, messageId: string, m: ChatMessage) {
  let s = messages.get(messageId);
  if (!s) {
    s = signal(m);
    messages.set(messageId, s);
  } else s.value = m;
  return s;
}

/** The first row mounted: the log's window, and while a request runs its whole turn. */
function firstMounted(c: Conversation, busy: boolean): number {
  // While a request runs, its whole turn is mounted however long: its deltas and cards need
  // their rows.
  const running = busy || c.messages.some((m) => m.role === 'assistant' && m.status === 'streaming');
  const start = windowStart(c.messages);
  if (!running) return start;
  let question = c.messages.length - 1;
  while (question > 0 && c.messages[question]?.role !== 'user') question--;
  return Math.min(start, Math.max(0, question));
}

/**
 * Shows `c` (another conversation, or the same one sent again). Another conversation gets new
 * message components (the log is keyed by conversation id); the same one sent again keeps them,
 * and each re-renders only if its message changed. Returns the id shown before.
 */
function showIn(
  s: ConversationState,
  c: Conversation,
  defaults: { params: ChatParams; model: string; systemPrompt: string },
): string | undefined {
  const { messages } = s;
  const previous = s.meta.value?.id;
  if (previous !== c.id) messages.clear();
  const ids = new Set(c.messages.map((m) => m.id));
  for (const messageId of [...messages.keys()]) if (!ids.has(messageId)) messages.delete(messageId);
  for (const m of c.messages) messageSignal(messages, m.id, m);
  s.meta.value = {
    id: c.id,
    model: c.model,
    systemPrompt: c.systemPrompt,
    params: c.params,
    disabledRules: c.disabledRules ?? [],
    caps: c.caps,
    ...(c.agent !== undefined ? { agent: c.agent } : {}),
  };
  s.defaults.value = defaults.params;
  s.defaultModel.value = defaults.model;
  s.defaultSystemPrompt.value = defaults.systemPrompt;
  s.version.value++;
  s.standaloneError.value = undefined;
  s.rows.value = c.messages.map((m) => m.id);
  const shown = c.model || defaults.model;
  const start = firstMounted(c, s.busyRequestId.value !== undefined);
  // The same conversation sent again keeps what the user had scrolled back to.
  s.earlier.value = previous === c.id ? Math.min(s.earlier.peek(), start) : start;
  afterRender(() => {
    if (els.model) els.model.value = shown;
    scrollPin.toEnd(previous !== c.id);
  });
  return previous;
}

/** The messages that change while a conversation is shown: new ones, costs, deltas, an error. */
function createUpdates(s: ConversationState) {
  const { meta, messages, rows } = s;

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
    messageSignal(messages, m.id, m);
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
    const sig = messages.get(messageId);
    const m = sig?.peek();
    if (sig && m?.role === 'assistant') sig.value = { ...m, cost };
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
    s.standaloneError.value = { error, requestId };
    rows.value = [...rows.value.filter((r) => r !== ERROR_ROW), ERROR_ROW];
    afterRender(() => scrollPin.toEnd());
  }

  return { upsert, setCost, delta, showStandaloneError };
}

/** The requests the page makes, one at a time, and the model box. */
function createRequests(s: ConversationState) {
  const { busyRequestId } = s;
  let lastRequestId: string | undefined;

  /** Sends a request unless one is running; the panel is busy until the host says otherwise. */
  function request(msg: Extract<WebviewMessage, { requestId: string }>): void {
    if (busyRequestId.value) return;
    lastRequestId = msg.requestId;
    busyRequestId.value = msg.requestId;
    post(msg);
  }

  return {
    request,
    /** A request ended: the panel is no longer busy with it. */
    ended(requestId: string): void {
      if (busyRequestId.value === requestId) busyRequestId.value = undefined;
    },
    stop(): void {
      const running = busyRequestId.value;
      if (running) post({ type: 'chat/cancel', requestId: running });
    },
    /** The model box changed: the conversation uses it (the default is stored as none). */
    setModel(model: string): void {
      const c = s.meta.value;
      if (c) s.meta.value = { ...c, model: model === s.defaultModel.value ? '' : model };
      post({ type: 'chat/setModel', model });
    },
    regenerate: (): void => request({ type: 'chat/regenerate', requestId: newId('r') }),
    continueAnswer: (): void => request({ type: 'chat/continue', requestId: newId('r') }),
    retry: (): void => request({ type: 'chat/retry', requestId: newId('r') }),
    lastRequest: (): string | undefined => lastRequestId,
  };
}

/** What the live region reads when an answer ends: the answer itself, cut if it is long. */
function announceAnswer(t: Translate, m: ChatMessage | undefined): void {
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

export function createConversationModel({ t }: { t: Translate }) {
  const s = conversationState();
  const scrollToEnd = (): void => scrollPin.toEnd();
  return {
    ...s,
    ...logPositions(s),
    show: (c: Conversation, d: ChatParams, model: string, systemPrompt: string): string | undefined =>
      showIn(s, c, { params: d, model, systemPrompt }),
    ...createUpdates(s),
    ...createRequests(s),
    announceAnswer: (m: ChatMessage | undefined): void => announceAnswer(t, m),
    scrollToEnd,
    /** Follows the end once the current render is in the DOM (a tool card, a late notice). */
    scrollToEndSoon: (): void => afterRender(scrollToEnd),
  };
}

export type ConversationModel = ReturnType<typeof createConversationModel>;
