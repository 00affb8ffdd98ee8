/**
 * The tools (`tools/*`): the list and tool_choice the panel shows, and the cards of the calls the
 * conversation makes: live states from the host, stored results, video tasks, and cards shown
 * loose (for a call no answer names yet).
 */
import { signal, type Signal } from '@preact/signals';
import type { GalleryTask } from '../../../src/shared/protocol/gallery';
import type {
  ChatMessage,
  ToolCallUpdate,
  ToolChoiceSetting,
  ToolInfo,
  ToolResultMessage,
} from '../../../src/shared/protocol';
import { afterRender, announce, cardEls, focusOnMount } from '../runtime';
import { CARD_ROW, type ConversationModel } from './conversation';
import type { HostMessageIn } from './routes';
import type { Translate } from './strings';

/** A tool card shown outside its answer's calls (an update for a call no message names). */
export interface LooseCard {
  callId: string;
  /** The answer it is shown under; none: at the end of the log. */
  owner: string | undefined;
}

function keyed<T>(map: Map<string, Signal<T | undefined>>, key: string): Signal<T | undefined> {
  let s = map.get(key);
  if (!s) {
    s = signal<T | undefined>(undefined);
    map.set(key, s);
  }
  return s;
}

function callIdsOf(list: readonly ChatMessage[]): Set<string> {
  return new Set(list.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])));
}

/** Whether a card for `callId` is shown: loose, or under an answer that names the call. */
function cardShown(
  callId: string,
  loose: readonly LooseCard[],
  { rows, messages }: Pick<ConversationModel, 'rows' | 'messages'>,
): boolean {
  if (loose.some((c) => c.callId === callId)) return true;
  for (const id of rows.value) {
    const m = messages.get(id)?.peek();
    if (m?.role === 'assistant' && m.toolCalls?.some((c) => c.id === callId)) return true;
  }
  return false;
}

export function createToolsModel({ conversation, t }: { conversation: ConversationModel; t: Translate }) {
  const list = signal<ToolInfo[]>([]);
  const choice = signal<ToolChoiceSetting>('auto');
  /** Bumped on every list from the host: the panel's controls start over. */
  const version = signal(0);
  /** Tool results by the call they answer, for the cards built from history. */
  const results = new Map<string, Signal<ToolResultMessage | undefined>>();
  /** Live card states from the host (`tools/call`), by call id. */
  const updates = new Map<string, Signal<ToolCallUpdate | undefined>>();
  /** The video task a call started (`tools/mediaJob`), by call id. */
  const videoTasks = new Map<string, Signal<GalleryTask | undefined>>();
  const looseCards = signal<LooseCard[]>([]);
  const { rows, messages } = conversation;

  /**
   * The conversation was shown again (`same`) or another one was. Live card states belong to
   * their conversation: ids are unique only within one (relays number calls per answer, so every
   * conversation may have a call_0), and the host forgets its cards on a switch too. The same
   * conversation sent again keeps those of calls it still has: after a regenerate the new answer
   * may get the dropped answer's id, and must not show its result.
   */
  function showConversation(shown: readonly ChatMessage[], same: boolean): void {
    if (!same) {
      updates.clear();
      results.clear();
      videoTasks.clear();
    } else {
      const calls = callIdsOf(shown);
      for (const [id, s] of updates) if (!calls.has(id)) s.value = undefined;
    }
    for (const s of results.values()) s.value = undefined;
    for (const m of shown) if (m.role === 'tool') keyed(results, m.toolCallId).value = m;
    looseCards.value = [];
  }

  /** A message the conversation took: its result, or the loose cards it now names. */
  function messageShown(m: ChatMessage): void {
    if (m.role === 'tool') keyed(results, m.toolCallId).value = m;
    if (m.role === 'assistant' && m.toolCalls?.length && looseCards.value.length) {
      // Cards shown loose until now move under the answer that names their call.
      const own = new Set(m.toolCalls.map((c) => c.id));
      looseCards.value = looseCards.value.filter((c) => !own.has(c.callId));
      rows.value = rows.value.filter((r) => !(r.startsWith(CARD_ROW) && own.has(r.slice(CARD_ROW.length))));
    }
  }

  /** Creates or updates a card (host: `postToolCall`). */
  function card(u: ToolCallUpdate): void {
    keyed(updates, u.callId).value = u;
    if (!cardEls.has(u.callId) && !cardShown(u.callId, looseCards.value, conversation)) placeLooseCard(u.callId);
    if (u.state === 'awaiting-approval') {
      afterRender(() => {
        announce(`${t('Tool call: {0}', u.name)}: ${t('Waiting for your approval')}`);
        const el = cardEls.get(u.callId);
        if (el) el.querySelector<HTMLButtonElement>('.tc-actions button')?.focus();
        else focusOnMount.add(u.callId);
      });
    }
    conversation.scrollToEndSoon();
  }

  /** A card for a call no answer names goes under the last answer, or at the end of the log. */
  function placeLooseCard(callId: string): void {
    let owner: string | undefined;
    for (const id of rows.value) if (messages.get(id)?.peek().role === 'assistant') owner = id;
    looseCards.value = [...looseCards.value, { callId, owner }];
    if (!owner) rows.value = [...rows.value, CARD_ROW + callId];
  }

  function onHost(msg: HostMessageIn<'tools'>): void {
    switch (msg.type) {
      case 'tools/call':
        card(msg.update);
        return;
      case 'tools/mediaJob':
        keyed(videoTasks, msg.callId).value = msg.task;
        return;
      case 'tools/list':
        list.value = msg.tools;
        choice.value = msg.choice;
        version.value++;
        return;
    }
  }

  return {
    list,
    choice,
    version,
    looseCards,
    /** The stored result of a call (a signal made on first use, so a card can wait for it). */
    result: (callId: string) => keyed(results, callId),
    /** The host's live state of a call. */
    update: (callId: string) => keyed(updates, callId),
    /** The video task a call started. */
    videoTask: (callId: string) => keyed(videoTasks, callId),
    showConversation,
    messageShown,
    onHost,
  };
}

export type ToolsModel = ReturnType<typeof createToolsModel>;
