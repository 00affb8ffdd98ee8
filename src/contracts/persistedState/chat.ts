// The chat's keys: the history, the rules allowed in an untrusted workspace, the tools' state,
// the followed tasks, the context windows learnt. How to add a key: ./state.ts.
import { storedMediaKind } from '../featureTools';
import type { HistoryEntry } from '../../shared/protocol/history';
import type { ToolMode } from '../../shared/protocol/context';
import type { ToolChoiceSetting } from '../../shared/protocol/tools';
import type { StateStore } from './state';
import {
  stateKey,
  entries,
  items,
  fields,
  oneOf,
  isMap,
  bool,
  text,
  finite,
  int,
  emptyMap,
  type StateCheck,
} from './state';

export { loadState, saveState } from './state';

const toolChoice: StateCheck<ToolChoiceSetting> = (v) =>
  v === 'auto' || v === 'none'
    ? v
    : isMap(v) && typeof v.name === 'string' && v.name !== ''
      ? { name: v.name }
      : undefined;

const toolMode = oneOf('all', 'readOnly', 'none') satisfies StateCheck<ToolMode>;

/** A model's memory of its context window: each field kept when valid. */
const perModel: StateCheck<{ learned?: number; toolMode?: ToolMode }> = (v) => {
  if (!isMap(v)) return undefined;
  const learned = finite(v.learned);
  const mode = toolMode(v.toolMode);
  return { ...(learned !== undefined ? { learned } : {}), ...(mode !== undefined ? { toolMode: mode } : {}) };
};

/** The history index's envelope (its entries are checked by chat/history/core/store.ts's schema). */
const chatIndex: StateCheck<{ version: number; activeId?: string; entries: HistoryEntry[] }> = (v) =>
  isMap(v) &&
  int(v.version) !== undefined &&
  (v.version as number) <= 1 &&
  (v.activeId === undefined || typeof v.activeId === 'string') &&
  Array.isArray(v.entries)
    ? (v as { version: number; activeId?: string; entries: HistoryEntry[] })
    : undefined;

/** workspace: the history list (rebuilt from the records by chat/history/core/store.ts when unreadable). */
export const chatIndexKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.chat.index',
  store: 'workspace',
  check: chatIndex,
  fallback: () => undefined,
});

/** workspace: the user let this untrusted workspace's rules files reach the model. */
export const rulesAllowedUntrustedKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.chat.rulesAllowedUntrusted',
  store: 'workspace',
  check: bool,
  fallback: () => false,
});

/** workspace: tools enabled and trusted, and the tool_choice pick (never settings: a repository writes those). */
export const toolStateKey = /* @__PURE__ */ stateKey<{
  enabled: Record<string, boolean>;
  trusted: string[];
  choice: ToolChoiceSetting;
}>({
  key: 'gatewayStudio.tools.state',
  store: 'workspace',
  check: (v) =>
    isMap(v)
      ? {
          enabled: entries(bool)(v.enabled) ?? {},
          trusted: items(text)(v.trusted) ?? [],
          choice: toolChoice(v.choice) ?? 'auto',
        }
      : undefined,
  fallback: () => ({ enabled: {}, trusted: [], choice: 'auto' }),
});

/** workspace: the tool calls whose chat cards follow a media job. */
export const followedTasksKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.chat.followedTasks',
  store: 'workspace',
  // A kind stored as 'videoTask' (before media jobs had kinds) reads as 'video'.
  check: items(fields({ kind: storedMediaKind, conversationId: text, callId: text, key: text })),
  fallback: () => [],
});

/** workspace: messages queued while an answer ran, per conversation (sent later, kept across a restart). */
export const queuedMessagesKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.chat.queuedMessages',
  store: 'workspace',
  check: items(fields({ conversationId: text, id: text, text: text, createdAt: finite })),
  fallback: () => [],
});

/** workspace: per model, the context window learnt from an overflow and the tool mode chosen. */
export const contextWindowKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.chat.contextWindow',
  store: 'workspace',
  check: entries(perModel),
  fallback: emptyMap,
});

/** global: the web domains fetch_url may fetch without asking (per user, never per workspace: a repository cannot pre-allow one). */
export const webDomainsKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.web.allowedDomains',
  store: 'global',
  check: items(text),
  fallback: (): string[] => [],
});

/** Keys made of a prefix and an id, one per item. */
interface StateFamily {
  readonly prefix: string;
  readonly store: StateStore;
  readonly version: number;
  /** The record's envelope (what is inside is checked by its owner). */
  readonly check: StateCheck<unknown>;
  keyOf(id: string): string;
}

export const PERSISTED_FAMILIES = {
  /**
   * workspace (or one file each in the workspace's storage folder, chat/history/core/fileStorage.ts):
   * one conversation record each. Version 1 has images inline as data URLs, 2 as files; a record
   * without images is still written as 1, so a version that knows only 1 keeps reading it. Version
   * 3 is a long conversation's head: its messages are in `chatConversationPart` records, listed in
   * order in `parts` (a short one is still written as 1 or 2). The conversation itself is checked,
   * and its images read back, by chat/history/core/store.ts.
   */
  chatConversation: {
    prefix: 'gatewayStudio.chat.conversation.',
    store: 'workspace',
    version: 3,
    check: (v) => (isMap(v) && int(v.version) !== undefined && 'conversation' in v ? v : undefined),
    keyOf: (id: string) => `gatewayStudio.chat.conversation.${id}`,
  },
  /**
   * workspace (files beside the conversations): a run of a long conversation's messages, named
   * `<prefix><conversation id>.<generation>`. A part is never rewritten in place: a changed run is
   * written under the next generation, then the head that lists it, then the old part is removed,
   * so a save cut off at any point leaves the previous head and every part it lists.
   */
  chatConversationPart: {
    prefix: 'gatewayStudio.chat.part.',
    store: 'workspace',
    version: 3,
    check: (v) => (isMap(v) && v.version === 3 && Array.isArray(v.messages) ? v : undefined),
    keyOf: (id: string) => `gatewayStudio.chat.part.${id}`,
  },
} as const satisfies Record<string, StateFamily>;
