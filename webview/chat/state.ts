/**
 * The chat's state as signals. Host messages (validated, see actions.ts) and user actions write
 * here; components read it and re-render only what reads a changed signal. Each message has its
 * own signal, so an update to one answer renders that answer alone.
 */
import type { Compaction, ContextMeter } from '../../src/shared/protocol';
import type { GalleryTask } from '../../src/shared/protocol/gallery';
import { computed, signal, type Signal } from '@preact/signals';
import type {
  CheckpointFileView,
  CheckpointSummaryView,
  ChatMessage,
  ChatParams,
  EditorContext,
  ErrorView,
  HistoryEntry,
  ImageAttachment,
  MentionItem,
  ModelInfo,
  ParamOverrides,
  RuleChip,
  ToolCallUpdate,
  ToolChoiceSetting,
  ToolInfo,
  ToolResultMessage,
} from '../../src/shared/protocol';
import type { WebviewString } from '../../src/shared/webviewStrings';

/** The part of `acquireVsCodeApi()` the chat uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What survives hiding and reloading inside the webview itself (the host keeps the rest). */
export interface LocalState {
  draft: string;
  images: ImageAttachment[];
  contexts: EditorContext[];
  mentions?: MentionItem[];
  editing: boolean;
}

/** The open @-picker: where its `@` is, the query, the host's rows and the ranked ones shown. */
export interface PickerState {
  start: number;
  query: string;
  queryId: string;
  source: MentionItem[];
  items: MentionItem[];
  active: number;
  loading: boolean;
}

/** The conversation without its messages (those live in `messages`, one signal each). */
export interface ConversationMeta {
  id: string;
  model: string;
  systemPrompt: string | undefined;
  params: ParamOverrides;
  /** Rules files switched off for this conversation. */
  disabledRules: string[];
}

export interface Note {
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** A tool card shown outside its answer's calls (an update for a call no message names). */
export interface LooseCard {
  callId: string;
  /** The answer it is shown under; none: at the end of the log. */
  owner: string | undefined;
}

export type PanelName = 'history' | 'settings' | 'tools';

/** Log rows that are not messages have ids no message can have (ids are non-empty strings). */
export const ERROR_ROW = '\u0000error';
export const CARD_ROW = '\u0000card:';

export const strings = signal<Record<string, string>>({});

/** Localised text for `key`, with `{0}`, `{1}`… replaced. */
export function t(key: WebviewString, ...args: (string | number)[]): string {
  const s = strings.value[key] ?? key;
  return s.replace(/\{(\d+)\}/g, (m, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? m : String(v);
  });
}

export const conversation = signal<ConversationMeta | undefined>(undefined);
/** The context meter of the shown conversation's next request (from the host). */
export const contextMeter = signal<ContextMeter | undefined>(undefined);
/** The summary that stands in for the shown conversation's earlier messages, if any. */
export const compaction = signal<Compaction | undefined>(undefined);
export const conversationId = computed(() => conversation.value?.id);
export const defaults = signal<ChatParams | undefined>(undefined);
export const defaultModel = signal('');
export const defaultSystemPrompt = signal('');
/** The rules files found (chips above the composer); `blocked` in an untrusted workspace. */
export const rules = signal<{ chips: RuleChip[]; blocked: boolean; warnings: string[] }>({
  chips: [],
  blocked: false,
  warnings: [],
});
/** Bumped on every conversation the host sends: open panels built from it start over. */
export const conversationVersion = signal(0);

/** The log's rows in order: message ids, plus ERROR_ROW and CARD_ROW+callId rows. */
export const rows = signal<string[]>([]);
export const messages = new Map<string, Signal<ChatMessage>>();
/**
 * Rows in [from, to) are not mounted yet: an opened long conversation mounts its first screen
 * at once and the rest in slices after it (rows added since are past `to` and always shown).
 */
export const unmounted = signal({ from: 0, to: 0 });
export const FIRST_SCREEN_ROWS = 30;
/** Tool results by the call they answer, for the cards built from history. */
export const toolResults = new Map<string, Signal<ToolResultMessage | undefined>>();
/** Live card states from the host (`tools/call`), by call id. */
export const toolUpdates = new Map<string, Signal<ToolCallUpdate | undefined>>();
/** The video task a call started (`tools/videoTask`), by call id. */
export const videoTasks = new Map<string, Signal<GalleryTask | undefined>>();
export const looseCards = signal<LooseCard[]>([]);
export const standaloneError = signal<{ error: ErrorView; requestId: string } | undefined>(undefined);

export const busyRequestId = signal<string | undefined>(undefined);
export const busy = computed(() => busyRequestId.value !== undefined);

export const models = signal<ModelInfo[]>([]);
export const modelsLoading = signal(false);
export const tools = signal<ToolInfo[]>([]);
export const toolChoice = signal<ToolChoiceSetting>('auto');
export const toolsVersion = signal(0);
export const history = signal<HistoryEntry[]>([]);
/** Bumped when the history arrives again: the panel's rows (rename, armed delete) start over. */
export const historyVersion = signal(0);
export const maxImageBytes = signal(5 * 1024 * 1024);
export const openPanel = signal<PanelName | undefined>(undefined);

export const draft = signal('');
export const images = signal<ImageAttachment[]>([]);
export const contexts = signal<EditorContext[]>([]);
/** @-mention chips waiting in the composer. */
export const mentions = signal<MentionItem[]>([]);
export const picker = signal<PickerState | undefined>(undefined);
export const editing = signal(false);
export const notes = signal<Note[]>([]);

/** The signal of one message, made on first use. */
export function messageSignal(id: string, m: ChatMessage): Signal<ChatMessage> {
  let s = messages.get(id);
  if (!s) {
    s = signal(m);
    messages.set(id, s);
  } else s.value = m;
  return s;
}

export function keyed<T>(map: Map<string, Signal<T | undefined>>, key: string): Signal<T | undefined> {
  let s = map.get(key);
  if (!s) {
    s = signal<T | undefined>(undefined);
    map.set(key, s);
  }
  return s;
}

export const currentModel = computed(() => conversation.value?.model || defaultModel.value);

/** Answers are shown as formatted JSON when the conversation asks for json_object. */
export const jsonMode = computed(
  () => (conversation.value?.params.response_format ?? defaults.value?.response_format) === 'json_object',
);

/**
 * Where the per-message buttons go, in one pass over the log (each message then compares its own
 * id, so a change re-renders only the buttons whose answer changed).
 */
export const positions = computed(() => {
  let lastUser: string | undefined;
  let lastAssistant: string | undefined;
  let lastRole: ChatMessage['role'] | undefined;
  let total = 0;
  for (const id of rows.value) {
    const m = messages.get(id)?.value;
    if (!m) continue;
    lastRole = m.role;
    if (m.role === 'user') {
      lastUser = m.id;
      // An answer to an earlier question is not the one Regenerate or Continue would replace.
      lastAssistant = undefined;
    } else if (m.role === 'assistant') {
      lastAssistant = m.id;
      total += m.usage?.total_tokens ?? 0;
    }
  }
  // A window that died before the answer came leaves the last question unanswered; the host's
  // regenerate answers it (Edit and resend alone would make the user retype or re-confirm it).
  return { lastUser, lastAssistant, unanswered: lastRole === 'user', total };
});
export const lastUserId = computed(() => positions.value.lastUser);
export const lastAssistantId = computed(() => positions.value.lastAssistant);
export const unanswered = computed(() => positions.value.unanswered);
export const totalTokens = computed(() => positions.value.total);

/** The shown conversation's answers that have a checkpoint (their Restore button), by answer id. */
export const checkpoints = signal<ReadonlyMap<string, CheckpointSummaryView>>(new Map());
/** The open restore panel: what Restore would do for one answer. */
export const restorePlan = signal<{ answerId: string; files: CheckpointFileView[] } | undefined>(undefined);
