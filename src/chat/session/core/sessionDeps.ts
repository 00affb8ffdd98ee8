// What a ChatSession needs from outside (the gateway client, the settings, the views, the log)
// and what the user sends it: the contract the host side implements.
import type { ModelOverride } from '../../../api/models/modelLimits';
import type { ModelRecord } from '../../../api/models/models';
import type { ChatBackend } from '../../../api/chat/wire';
import type {
  AnswerCost,
  ChatParams,
  ContextAttachment,
  Conversation,
  HostMessage,
  EditorContext,
  ImageAttachment,
} from '../../../shared/protocol';
import type { ConversationStore } from '../../history/core/store';
import type { KeyValueStorage } from '../../conversation/core/contracts';
import type { PromptSnapshot } from '../../prompt/core/systemPrompt';
import type { SessionSink } from '../../conversation/core/routes';
import type { CostQuery } from './answerCost';
import type { AgentCatalog } from '../../agents/core/agent';
import type { TurnGate } from '../../caps/core/gatedContext';

/** The gateway client as the session uses it: a turn's chat calls and the model list. */
export interface SessionBackend extends ChatBackend {
  listModels(signal?: AbortSignal): Promise<ModelRecord[]>;
}

/** The settings the session reads, as they are now; asked again on every use, never cached. */
export interface SessionSettings {
  chatModel: string;
  systemPrompt: string;
  /** The default chat parameters under their wire names. */
  params: ChatParams;
  /** `gatewayStudio.tools.maxRounds`. */
  maxRounds: number;
  /** `gatewayStudio.models.overrides`: per model id, its window, output limit, images and tools. */
  modelOverrides?: Record<string, ModelOverride>;
}

/** What happened in the session that the host side acts on besides the views. */
export interface SessionEvents {
  /**
   * Another conversation is shown (opened from the history, a new chat); the views already got
   * it. Its cards and checkpoints are the host side's to send now.
   */
  conversationShown(conversationId: string): void;
}

export interface SessionLog {
  warn(msg: string): void;
  error(msg: string): void;
}

/** What the user's hooks said at one of the session's moments: lines for the user (a failed hook, a `systemMessage`). */
export interface HookReport {
  notices?: string[];
}

/**
 * The user's hooks at the session's moments (`src/chat/hooks`, injected by the composition point;
 * the tool events go through the tool runner's gate). Each resolves, whatever the hooks did.
 */
export interface SessionHooks {
  /**
   * Before a turn that answers the user's message: SessionStart first on the conversation's first
   * message, then UserPromptSubmit. `blocked`: do not send it (the reason is for the user);
   * `context`: what the hooks add for the model.
   */
  promptSubmitted(e: {
    conversationId: string;
    prompt: string;
    first: boolean;
    signal: AbortSignal;
  }): Promise<HookReport & { blocked?: string; context?: string }>;
  /** PreCompact, before a summary replaces earlier messages (`manual`: the Compact action). */
  beforeCompact(e: { conversationId: string; trigger: 'manual' | 'auto'; signal: AbortSignal }): Promise<HookReport>;
  /** Stop, after an answer ended; `continueWith`: a hook blocked stopping, and this is why. */
  turnStopped(e: {
    conversationId: string;
    stopHookActive: boolean;
    signal: AbortSignal;
  }): Promise<HookReport & { continueWith?: string }>;
}

export interface SessionDeps {
  store: ConversationStore;
  /** The gateway client for the current settings and key; rejects when none can be built (no base URL). */
  backend: () => Promise<SessionBackend>;
  /** Whether the shown conversation's gateway has a key (none: a refused model list asks for one). */
  hasKey?: () => Promise<boolean>;
  settings: () => SessionSettings;
  sink: SessionSink;
  events?: SessionEvents;
  log: SessionLog;
  now?: () => number;
  /** Where windows learnt from overflow errors and per-model tool modes are kept (workspace state). */
  contextStorage?: KeyValueStorage;
  /**
   * The editor's state and the rules files for the system prompt, asked for every request
   * (`chat/prompt/vscode/environment.ts` and `rules.ts`). Without it only the user's own prompt is sent.
   * Given the conversation, so rules that depend on it (nested `AGENTS.md` of mentioned files)
   * can be added.
   */
  prompt?: (c: Conversation) => Promise<PromptSnapshot>;
  /**
   * What an ended answer cost, from whoever prices answers (`src/platform/answerCosts.ts`);
   * `backend` is the client that answered (its gateway). Asked after the answer, never before a send.
   */
  priceAnswer?: (backend: SessionBackend, q: CostQuery) => Promise<AnswerCost | undefined>;
  /** The user's hooks (SessionStart, UserPromptSubmit, PreCompact, Stop); none without it. */
  hooks?: SessionHooks;
  /**
   * The agents a turn may run as (`chat/agents`): the conversation's, or the one a question names.
   * Without it every turn is the plain Agent (all enabled tools, the conversation's model).
   */
  agents?: AgentCatalog;
  /** Spend caps (`chat/caps`): a gate per turn and the composer's pre-send price; none without it. */
  caps?: SessionCaps;
  /** Messages the user queued while a turn ran (`chat/queue`); none without it. */
  queue?: SessionQueue;
}

/** The queued messages as a turn sees them (`chat/queue/vscode/chatQueue.ts`). */
export interface SessionQueue {
  started(conversationId: string): void;
  /** The queued text that follows a tool round's results, taken from the queue; undefined: none. */
  afterRound(conversationId: string): string | undefined;
  /** Text taken after a round that could not go (a hook blocked it): queued again, first. */
  putBack(conversationId: string, text: string): void;
  /** The turn ended; `shown`: its conversation is still shown (only then is the queue sent). */
  ended(conversationId: string, end: 'done' | 'stopped' | 'error' | 'max-rounds', shown: boolean): void;
}

/** The spend caps as the session uses them (`chat/caps/vscode/chatCaps.ts`). */
export interface SessionCaps {
  /**
   * The gate of one turn, asked before each of its requests (undefined: none). `settled` resolves
   * once the turn's answers so far carry their costs; `signal` is the turn's Stop.
   */
  forTurn(
    conversation: Conversation,
    turn: { backend: SessionBackend; settled: () => Promise<void>; signal: AbortSignal },
  ): TurnGate | undefined;
  /** The pre-send line's price for the shown conversation as last known, sent with the meter. */
  messages(): HostMessage[];
  /** The meter was sent again (another conversation or model, a turn ended): the price may have changed. */
  refresh(): void;
}

/** What the user sends: the composer's text with its attachments. */
export interface Question {
  text: string;
  images: ImageAttachment[];
  contexts: EditorContext[];
  /** Resolved @-mentions. */
  attachments?: ContextAttachment[];
  /** The agent this request runs as (a prompt file's `agent`/`mode`). */
  agent?: string;
  /** The model of this request only (a prompt file's or skill's `model`); the conversation keeps its own. */
  model?: string;
  /** The tools this request may use: already narrowed to the user's enabled tools, never more. */
  tools?: readonly string[];
}
