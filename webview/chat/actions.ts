/**
 * Host messages into state: `onHostMessage` takes each one (see src/shared/protocol/guard.ts for why it is not
 * parsed again here) and applies it in one batch, then renders before returning (see runtime.flush).
 */
import { batch } from '@preact/signals';
import { asMessage } from '../../src/shared/protocol/guard';
import type {
  ChatMessage,
  ChatParams,
  Conversation,
  ErrorView,
  HostMessage,
  ToolCallUpdate,
} from '../../src/shared/protocol';
import { confirm, renderAttachments, restoreUnconfirmed, setEditing, unconfirmedIs } from './composerActions';
import { setImageLabel } from './markdown';
import { addMentions, pickerResults } from './mentionActions';
import { compaction, contextMeter } from './state';
import { afterRender, announce, cardEls, els, flush, live, scrollToEnd, scrollToEndSoon } from './runtime';
import {
  busyRequestId,
  CARD_ROW,
  checkpoints,
  restorePlan,
  contexts,
  conversation,
  conversationVersion,
  defaultModel,
  defaults,
  defaultSystemPrompt,
  draft,
  ERROR_ROW,
  history,
  historyVersion,
  images,
  keyed,
  looseCards,
  maxImageBytes,
  messages,
  messageSignal,
  models,
  modelsLoading,
  notes,
  rows,
  rules,
  FIRST_SCREEN_ROWS,
  standaloneError,
  strings,
  t,
  toolChoice,
  toolResults,
  tools,
  toolsVersion,
  toolUpdates,
  videoTasks,
  unmounted,
} from './state';

/** Entry for every message from the host. */
export function onHostMessage(data: unknown): void {
  const msg = asMessage<HostMessage>(data);
  if (!msg) return;
  batch(() => handle(msg));
  flush();
}

function handle(msg: HostMessage): void {
  switch (msg.type) {
    case 'chat/snapshot':
      strings.value = msg.strings;
      setImageLabel(t('image: {0}'));
      maxImageBytes.value = msg.maxImageBytes;
      busyRequestId.value = msg.busyRequestId;
      setConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
      renderAttachments();
      // A panel opened from the keyboard has focus before its page has content: the message box
      // takes it once it exists.
      afterRender(() => {
        if (document.hasFocus()) keepFocus();
      });
      return;
    case 'chat/conversation':
      setConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
      return;
    case 'chat/message':
      if (msg.message.role === 'user' && msg.requestId !== undefined && unconfirmedIs(msg.requestId)) confirm();
      upsertMessage(msg.message);
      return;
    case 'chat/delta':
      delta(msg.messageId, msg.content, msg.reasoning);
      return;
    case 'chat/done':
      restoreUnconfirmed(msg.requestId);
      if (msg.message) upsertMessage(msg.message);
      if (busyRequestId.value === msg.requestId) busyRequestId.value = undefined;
      afterRender(() => {
        announceAnswer(msg.message);
        keepFocus();
      });
      return;
    case 'chat/error':
      restoreUnconfirmed(msg.requestId);
      if (msg.message) upsertMessage(msg.message);
      else showStandaloneError(msg.error, msg.requestId);
      if (busyRequestId.value === msg.requestId) busyRequestId.value = undefined;
      afterRender(() => {
        announce(`${msg.error.title}. ${msg.error.detail}`);
        keepFocus();
      });
      return;
    case 'chat/busy':
      if (msg.requestId !== undefined && unconfirmedIs(msg.requestId)) confirm();
      busyRequestId.value = msg.requestId;
      return;
    case 'history/list':
      history.value = msg.entries;
      historyVersion.value++;
      // The list comes after the panel opened (and every row is built anew): the keyboard goes
      // to the open conversation's row, unless the user has moved on out of the panel.
      afterRender(() => {
        const a = document.activeElement;
        if (a && a !== document.body && !a.closest('.panel')) return;
        document.querySelector<HTMLElement>('.history-list [data-autofocus]')?.focus();
      });
      return;
    case 'models/list':
      models.value = msg.models;
      modelsLoading.value = msg.loading;
      if (msg.error) note(`${msg.error.title}: ${msg.error.detail}`, 'warning');
      return;
    case 'images/picked':
      images.value = [...images.value, ...msg.images];
      renderAttachments(msg.problems);
      return;
    case 'chat/context':
      contexts.value = [...contexts.value, msg.context];
      if (msg.prompt !== undefined && !draft.value.trim()) draft.value = msg.prompt;
      renderAttachments();
      afterRender(() => els.textarea?.focus());
      return;
    case 'chat/notice':
      note(msg.text, msg.level);
      return;
    case 'tools/call':
      toolCard(msg.update);
      return;
    case 'tools/videoTask':
      keyed(videoTasks, msg.callId).value = msg.task;
      return;
    case 'tools/list':
      tools.value = msg.tools;
      toolChoice.value = msg.choice;
      toolsVersion.value++;
      return;
    case 'chat/focus':
      afterRender(() => els.textarea?.focus());
      return;
    case 'checkpoints/list':
      if (msg.conversationId === conversation.value?.id)
        checkpoints.value = new Map(msg.answers.map((a) => [a.answerId, a]));
      return;
    case 'checkpoints/plan':
      if (msg.files) restorePlan.value = { answerId: msg.answerId, files: msg.files };
      else if (restorePlan.value?.answerId === msg.answerId) restorePlan.value = undefined;
      return;
    case 'mentions/results':
      pickerResults(msg.queryId, msg.items);
      return;
    case 'mentions/add':
      addMentions(msg.items);
      for (const p of msg.problems) note(p, 'warning');
      afterRender(() => els.textarea?.focus());
      return;
    case 'context/meter':
      contextMeter.value = msg.meter;
      return;
    case 'context/compacted':
      if (msg.conversationId === conversation.value?.id) compaction.value = msg.compaction;
      return;
    case 'prompt/rules':
      rules.value = { chips: msg.rules, blocked: msg.blocked, warnings: msg.warnings };
      return;
  }
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
/** Enough for a short answer whole and the start of a long one, without minutes of speech. */
const ANNOUNCE_CHARS = 1000;

/**
 * The Stop button that had focus is hidden once the answer ends, and a hidden element loses
 * focus to the page: focus goes back to the message box, where the next question is typed.
 */
function keepFocus(): void {
  const a = document.activeElement;
  if (!a || a === document.body || (a instanceof HTMLElement && a.offsetParent === null)) els.textarea?.focus();
}

export function note(text: string, level: 'info' | 'warning' | 'error'): void {
  notes.value = [...notes.value, { level, text }];
  afterRender(() => announce(text));
}

function callIdsOf(list: readonly ChatMessage[]): Set<string> {
  return new Set(list.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])));
}

function setConversation(c: Conversation, d: ChatParams, model: string, systemPrompt: string): void {
  const previous = conversation.value;
  compaction.value = c.compaction;
  // An edit belongs to the conversation it started in: Send in another one (or a new chat)
  // would replace that one's last message, or send nothing at all. The typed text stays.
  if (previous && previous.id !== c.id) setEditing(false);
  // Live card states belong to their conversation: ids are unique only within one (relays number
  // calls per answer, so every conversation may have a call_0), and the host forgets its cards
  // on a switch too. The same conversation sent again keeps those of calls it still has: after
  // a regenerate the new answer may get the dropped answer's id, and must not show its result.
  // Another conversation gets new message components (the log is keyed by conversation id);
  // the same one sent again keeps them, and each re-renders only if its message changed.
  if (previous?.id !== c.id) {
    checkpoints.value = new Map();
    restorePlan.value = undefined;
    messages.clear();
    toolUpdates.clear();
    toolResults.clear();
    videoTasks.clear();
  } else {
    const calls = callIdsOf(c.messages);
    for (const [id, s] of toolUpdates) if (!calls.has(id)) s.value = undefined;
  }
  const ids = new Set(c.messages.map((m) => m.id));
  for (const id of [...messages.keys()]) if (!ids.has(id)) messages.delete(id);
  for (const s of toolResults.values()) s.value = undefined;
  for (const m of c.messages) {
    messageSignal(m.id, m);
    if (m.role === 'tool') keyed(toolResults, m.toolCallId).value = m;
  }
  conversation.value = {
    id: c.id,
    model: c.model,
    systemPrompt: c.systemPrompt,
    params: c.params,
    disabledRules: c.disabledRules ?? [],
  };
  defaults.value = d;
  defaultModel.value = model;
  defaultSystemPrompt.value = systemPrompt;
  conversationVersion.value++;
  looseCards.value = [];
  standaloneError.value = undefined;
  rows.value = c.messages.map((m) => m.id);
  const shown = c.model || model;
  // While a request runs, every row is mounted at once: its deltas and cards need their answer.
  const running =
    busyRequestId.value !== undefined || c.messages.some((m) => m.role === 'assistant' && m.status === 'streaming');
  unmounted.value = running
    ? { from: 0, to: 0 }
    : { from: Math.min(FIRST_SCREEN_ROWS, c.messages.length), to: c.messages.length };
  afterRender(() => {
    if (els.model) els.model.value = shown;
    scrollToEnd();
  });
}

function upsertMessage(m: ChatMessage): void {
  if (!conversation.value) return;
  const existing = messages.get(m.id);
  // While an answer streams, its text comes as deltas; a repeated "streaming" copy changes nothing.
  if (existing && live.has(m.id) && m.role === 'assistant' && m.status === 'streaming') return;
  messageSignal(m.id, m);
  if (!existing) rows.value = [...rows.value, m.id];
  if (m.role === 'tool') keyed(toolResults, m.toolCallId).value = m;
  if (m.role === 'assistant' && m.toolCalls?.length && looseCards.value.length) {
    // Cards shown loose until now move under the answer that names their call.
    const own = new Set(m.toolCalls.map((c) => c.id));
    looseCards.value = looseCards.value.filter((c) => !own.has(c.callId));
    rows.value = rows.value.filter((r) => !(r.startsWith(CARD_ROW) && own.has(r.slice(CARD_ROW.length))));
  }
  afterRender(scrollToEnd);
}

function delta(messageId: string, content: string | undefined, reasoning: string | undefined): void {
  const l = live.get(messageId);
  if (!l) return;
  if (content) l.renderer.append(content);
  if (reasoning) {
    l.reasoning.appendData(reasoning);
    l.details.hidden = false;
  }
  // The stored copy follows along without a render (nothing shown depends on it mid-stream).
  const m = messages.get(messageId)?.peek();
  if (m?.role === 'assistant') {
    if (content) m.content += content;
    if (reasoning) m.reasoning = (m.reasoning ?? '') + reasoning;
  }
  scrollToEndSoon();
}

function showStandaloneError(error: ErrorView, requestId: string): void {
  standaloneError.value = { error, requestId };
  rows.value = [...rows.value.filter((r) => r !== ERROR_ROW), ERROR_ROW];
  afterRender(scrollToEnd);
}

/** Creates or updates a card (host: `postToolCall`). */
function toolCard(u: ToolCallUpdate): void {
  keyed(toolUpdates, u.callId).value = u;
  if (!cardEls.has(u.callId) && !cardShown(u.callId)) placeLooseCard(u.callId);
  if (u.state === 'awaiting-approval') {
    afterRender(() => {
      announce(`${t('Tool call: {0}', u.name)}: ${t('Waiting for your approval')}`);
      cardEls.get(u.callId)?.querySelector<HTMLButtonElement>('.tc-actions button')?.focus();
    });
  }
  scrollToEndSoon();
}

function cardShown(callId: string): boolean {
  if (looseCards.value.some((c) => c.callId === callId)) return true;
  for (const id of rows.value) {
    const m = messages.get(id)?.peek();
    if (m?.role === 'assistant' && m.toolCalls?.some((c) => c.id === callId)) return true;
  }
  return false;
}

/** A card for a call no answer names goes under the last answer, or at the end of the log. */
function placeLooseCard(callId: string): void {
  let owner: string | undefined;
  for (const id of rows.value) if (messages.get(id)?.peek().role === 'assistant') owner = id;
  looseCards.value = [...looseCards.value, { callId, owner }];
  if (!owner) rows.value = [...rows.value, CARD_ROW + callId];
}
