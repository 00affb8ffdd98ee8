import {
  newId,
  type AssistantMessage,
  type Conversation,
  type ErrorView,
  type HostMessage,
} from '../../../shared/protocol';
import { PartialSaver } from '../../history/core/partialSave';
import type { ToolExecutor } from '../../tools/core/seam';
import { effectiveModel, type RequestDefaults } from '../../conversation/core/request';
import type { RequestSlot } from './requestSlot';
import type { SessionContext } from './sessionContext';
import type { ContextGuard } from '../../context/core/contextGuard';
import type { SessionBackend, SessionDeps } from './sessionDeps';
import { TurnCosts } from './answerCost';
import { errorView } from './errorView';
import { runTurn } from './turnRunner';
import { afterAnswer, beforeUserTurn, HookBlocked, MAX_STOP_CONTINUATIONS } from './turnHooks';
import { agentTurn, type TurnRequest } from './agentTurn';
import { gatedContext } from '../../caps/core/gatedContext';
import { queuedAfterRound } from './queuedTurn';

export type { TurnRequest } from './agentTurn';

/** Least time between two saves of an answer that is still streaming. */
const PARTIAL_SAVE_MS = 2000;

/** What a turn needs of the session that runs it. */
export interface TurnHost {
  readonly deps: SessionDeps;
  readonly slot: RequestSlot;
  readonly context: SessionContext;
  readonly now: () => number;
  executor(): ToolExecutor | undefined;
  /** Whether `c` is still the conversation shown (the user may open another one mid-answer). */
  isShown(c: Conversation): boolean;
  /** `dirtyFrom`: no message before it changed since the previous save (ConversationStore.save). */
  save(c: Conversation, dirtyFrom?: number): Promise<void>;
  historyMessage(): HostMessage;
}

/**
 * Runs one turn of `conversation` (its question is already in it) as request `requestId`: the
 * answer streams to the views while the conversation is shown, and is saved when the request is
 * sent, every ~2 s while text arrives, and at its end, whichever conversation is shown by then.
 */
export async function runSessionTurn(
  host: TurnHost,
  conversation: Conversation,
  requestId: string,
  request?: TurnRequest,
): Promise<void> {
  const { deps, slot, context } = host;
  const signal = slot.begin(requestId);
  const shown = () => host.isShown(conversation);
  const { own, partial } = turnSaves(host, conversation);
  let defaults = context.turnDefaults();
  let status: string;
  let lastError: ErrorView | undefined;
  let last: AssistantMessage | undefined;
  const compactedBefore = conversation.compaction;
  const notice = (text: string) => {
    if (shown()) deps.sink.broadcast({ type: 'chat/notice', level: 'warning', text });
  };
  try {
    // Before the client is asked for: a blocked message reaches no gateway.
    const blocked = await beforeUserTurn(deps.hooks, conversation, signal, notice);
    if (blocked !== undefined) throw new HookBlocked(blocked);
    const backend = await deps.backend();
    await context.guard.ensureRecords(() => backend.listModels(signal));
    const agent = await agentTurn({
      catalog: deps.agents,
      conversation,
      ...(request ? { request } : {}),
      defaults,
      executor: host.executor(),
      guard: context.guard,
      ...(deps.prompt ? { prompt: context.takePrompt } : {}),
    });
    defaults = agent.defaults;
    for (const n of agent.notes) deps.log.warn(`chat agents: ${n}`);
    const { costs, window } = turnParts(host, conversation, { defaults, backend, signal, own });
    const turn = () =>
      runTurn({
        backend,
        conversation,
        defaults,
        executor: agent.executor,
        context: window,
        maxRounds: deps.settings().maxRounds,
        signal,
        now: host.now,
        betweenRounds: () => queuedAfterRound(deps, conversation, signal, notice, host.now()),
        ...(agent.prompt ? { prompt: agent.prompt } : {}),
        callbacks: {
          onMessage: (msg) => {
            costs?.seen(conversation, msg);
            // Tool rounds are stored on the streaming answer's cadence, not per message (a busy
            // agent step has several); the turn's end saves at once.
            if (msg.role !== 'assistant' || msg.status !== 'streaming') partial.touch();
            if (shown()) deps.sink.broadcast({ type: 'chat/message', requestId, message: msg });
          },
          onDelta: (messageId, d) => {
            partial.touch();
            if (shown()) deps.sink.delta(requestId, messageId, d);
          },
        },
      });
    let outcome = await turn();
    // A Stop hook that blocks stopping gets its answer, a few times at most (each is paid for).
    for (let n = 0; outcome.status === 'done' && n < MAX_STOP_CONTINUATIONS; n++) {
      const more = await afterAnswer(deps.hooks, conversation, n > 0, signal, notice, host.now());
      if (!more) break;
      conversation.messages.push(more);
      if (shown()) deps.sink.broadcast({ type: 'chat/message', requestId, message: more });
      outcome = await turn();
    }
    status = outcome.status;
    lastError = outcome.error;
    last = outcome.last;
  } catch (err) {
    // The client could not even be built (no base URL): show it inline like any failure.
    lastError = err instanceof HookBlocked ? err.view : errorView(err);
    status = 'error';
    last = failedAnswer(conversation, effectiveModel(conversation, defaults), lastError, host.now());
  }
  partial.end();
  slot.end(requestId);
  await endTurn(host, conversation, requestId, { status, lastError, last, compactedBefore, own });
}

/**
 * The turn's saves. The conversation is stored as the request is sent, whatever changed it (a new
 * or edited question, Continue's question, the answer Regenerate or Retry removed): a window that
 * dies mid-answer comes back with what the user saw. Then every ~2 s while the answer streams or
 * runs tools (loaded as stopped after a crash, its text kept), and once at its end. A turn changes
 * only its question (the last message now) and what it adds; its saves say so, and a long
 * conversation writes only its tail (history/core/parts.ts).
 */
function turnSaves(host: TurnHost, conversation: Conversation): { own: number; partial: PartialSaver } {
  const own = Math.max(0, conversation.messages.length - 1);
  void host.save(conversation, own);
  return { own, partial: new PartialSaver(() => host.save(conversation, own), PARTIAL_SAVE_MS, host.now) };
}

/** How the turn ended, for the queue (a hook's block or a failure to start counts as an error). */
function queueEnd(status: string): 'done' | 'stopped' | 'error' | 'max-rounds' {
  return status === 'done' || status === 'stopped' || status === 'max-rounds' ? status : 'error';
}

/** Saves the turn's conversation and tells the views how it ended. */
async function endTurn(
  host: TurnHost,
  conversation: Conversation,
  requestId: string,
  end: {
    status: string;
    lastError?: ErrorView;
    last?: AssistantMessage;
    compactedBefore: Conversation['compaction'];
    own: number;
  },
): Promise<void> {
  const { deps, context } = host;
  const { sink } = deps;
  const { status, lastError, last } = end;
  const shown = () => host.isShown(conversation);
  // The turn's own conversation: the user may have opened another one meanwhile.
  await host.save(conversation, end.own);
  if (shown()) {
    sink.broadcast(
      status === 'error' && lastError
        ? { type: 'chat/error', requestId, error: lastError, message: last }
        : { type: 'chat/done', requestId, message: last },
    );
  } else {
    sink.broadcast({ type: 'chat/done', requestId });
  }
  sink.broadcast(host.historyMessage());
  if (conversation.compaction !== end.compactedBefore && shown())
    sink.broadcast({ type: 'context/compacted', conversationId: conversation.id, compaction: conversation.compaction });
  if (shown()) context.broadcastMeter();
  if (lastError) deps.log.warn(`chat request failed: ${lastError.title}: ${lastError.detail}`);
  // After chat/done: the queue may start the next turn at once.
  deps.queue?.ended(conversation.id, queueEnd(status), shown());
}

/**
 * The turn's answer costs and its context window, with the spend caps' gate before each request
 * when there are caps (it waits for the costs of the answers before it).
 */
function turnParts(
  host: TurnHost,
  conversation: Conversation,
  t: { defaults: RequestDefaults; backend: SessionBackend; signal: AbortSignal; own: number },
): { costs: TurnCosts | undefined; window: ReturnType<ContextGuard['forTurn']> } {
  const { guard } = host.context;
  // From here on, messages the user writes wait for the turn's boundaries.
  host.deps.queue?.started(conversation.id);
  const costs = turnCosts(host, conversation, t.backend, t.own);
  const gate = host.deps.caps?.forTurn(conversation, {
    backend: t.backend,
    settled: async () => costs?.settled(),
    signal: t.signal,
  });
  const window = gatedContext(
    guard.forTurn(conversation, t.defaults, t.backend),
    gate,
    (m) => guard.limits(m).maxOutput,
  );
  return { costs, window };
}

/** What the turn's answers cost, when someone prices them; each cost is stored and shown as it comes. */
function turnCosts(
  host: TurnHost,
  conversation: Conversation,
  backend: SessionBackend,
  own: number,
): TurnCosts | undefined {
  const { deps } = host;
  const price = deps.priceAnswer;
  if (!price) return undefined;
  return new TurnCosts(
    (q) => price(backend, q),
    (messageId, cost) => {
      // Stored on its answer in its own conversation whatever is shown now: the user may
      // have opened another conversation before the cost came. The answer is one of the turn's.
      void host.save(conversation, own);
      if (host.isShown(conversation))
        deps.sink.broadcast({ type: 'chat/cost', conversationId: conversation.id, messageId, cost });
    },
    (m) => deps.log.warn(m),
  );
}

/** The answer that shows a turn which could not start (no client could be built), added to its conversation. */
function failedAnswer(conversation: Conversation, model: string, error: ErrorView, now: number): AssistantMessage {
  const last: AssistantMessage = {
    id: newId('a'),
    role: 'assistant',
    content: '',
    status: 'error',
    requestedModel: model,
    createdAt: now,
    error,
  };
  conversation.messages.push(last);
  return last;
}
