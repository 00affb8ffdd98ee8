import * as l10n from '@vscode/l10n';
import type {
  ChatBackend,
  ChatRequest,
  ChatResult,
  StreamOptions,
  ToolCall,
  ToolMessage,
} from '../../../api/chat/wire';
import { isGatewayError } from '../../../api/transport/errors';
import {
  newId,
  type AssistantMessage,
  type ChatMessage,
  type Conversation,
  type ErrorView,
  type ToolResultMessage,
  type Usage,
} from '../../../shared/protocol';
import type { TurnContext } from '../../context/core/contextGuard';
import {
  buildChatRequest,
  effectiveModel,
  RequestProblem,
  type BuildOptions,
  type RequestDefaults,
} from '../../conversation/core/request';
import { promptBuild, type PromptSnapshot } from '../../prompt/core/systemPrompt';
import { callsUniqueIn } from '../../tools/core/ids';
import { cachedTokens } from './answerCost';
import { errorView } from './errorView';
import { reasoningToKeep, trimReasoning } from '../../conversation/core/encryptedReasoning';
import { storedToolImages } from '../../conversation/core/toolImages';
import { ToolRunStopped, type ToolExecutor } from '../../tools/core/seam';

/** How a turn reports progress; the view forwards these to the webview and persists finals. */
export interface TurnCallbacks {
  /** A message was added or changed (new answer, tool result, final state of an answer). */
  onMessage(m: ChatMessage): void;
  /** Text or reasoning arrived for a streaming answer. */
  onDelta(messageId: string, d: { content?: string; reasoning?: string }): void;
}

export interface TurnOptions {
  backend: ChatBackend;
  /** Mutated: answers and tool messages are appended as they happen. */
  conversation: Conversation;
  defaults: RequestDefaults;
  executor?: ToolExecutor;
  /** `gatewayStudio.tools.maxRounds`: tool executions allowed for this one user message. */
  maxRounds: number;
  signal: AbortSignal;
  callbacks: TurnCallbacks;
  /** The present state for the system prompt, taken again for every request of the turn. */
  prompt?: (c: Conversation) => Promise<PromptSnapshot>;
  now?: () => number;
  /** User messages queued while a tool round ran: they follow its results, before the next request. */
  betweenRounds?: () => Promise<ChatMessage[]>;
  /**
   * The context window: when given, each request is fitted to the window before it is sent
   * (compacted, `max_tokens` clamped), and an overflow the server reports anyway is learnt from,
   * compacted and retried once.
   */
  context?: TurnContext & { build(executor: ToolExecutor | undefined, afterTools: boolean): BuildOptions };
}

export interface TurnOutcome {
  status: 'done' | 'stopped' | 'error' | 'max-rounds';
  rounds: number;
  error?: ErrorView;
  /** The last answer of the turn. */
  last?: AssistantMessage;
}

/**
 * Streams one answer to the conversation's last user message and, while the answer ends with
 * tool calls and an executor is given, runs them and asks again, up to `maxRounds` executions.
 * Never throws for gateway or tool failures: they end the turn as `error` (shown inline, partial
 * text kept) or `stopped` (the user's Stop, partial text kept).
 */
export async function runTurn(o: TurnOptions): Promise<TurnOutcome> {
  const now = o.now ?? Date.now;
  const conv = o.conversation;
  let rounds = 0;

  for (;;) {
    const answer: AssistantMessage = {
      id: newId('a'),
      role: 'assistant',
      content: '',
      status: 'streaming',
      requestedModel: effectiveModel(conv, o.defaults),
      ...(o.defaults.agent !== undefined ? { agent: o.defaults.agent } : {}),
      createdAt: now(),
    };
    // Every round after the first answers the tool results of the one before it.
    const build = buildOptions(o, rounds > 0);
    let req: ChatRequest;
    try {
      req = await prepareRequest(o, build);
    } catch (err) {
      answer.status = 'error';
      answer.error = (err instanceof RequestProblem ? undefined : o.context?.describe(err)) ?? errorView(err);
      push(o, answer, now);
      return { status: 'error', rounds, error: answer.error, last: answer };
    }
    push(o, answer, now);

    const stream = answerStream(o, answer, now);
    let result: ChatResult;
    try {
      result = await sendFitted(o, req, build, answer, stream.onEvent);
    } catch (err) {
      return { ...failed(o, answer, err, now), rounds };
    }
    stream.thought();
    const calls = settle(conv, answer, result);

    if (calls.length === 0 || !o.executor) {
      push(o, answer, now);
      return { status: 'done', rounds, last: answer };
    }
    if (rounds >= o.maxRounds) return roundsSpent(o, answer, calls, rounds, now);
    push(o, answer, now);

    const ended = await runCalls(o, o.executor, answer, calls, now);
    if (ended) return { ...ended, rounds };
    rounds++;
    if (o.signal.aborted) return { status: 'stopped', rounds, last: answer };
    for (const m of (await o.betweenRounds?.()) ?? []) push(o, m, now);
  }
}

/** The tools and the context's fitting for one request; `afterTools` when it answers tool results. */
function buildOptions(o: TurnOptions, afterTools: boolean): BuildOptions {
  if (o.context) return o.context.build(o.executor, afterTools);
  return o.executor ? { tools: o.executor.definitions(), toolChoice: o.executor.toolChoice({ afterTools }) } : {};
}

/** The request with the present system prompt, fitted to the window when a context is given. */
async function prepareRequest(o: TurnOptions, build: BuildOptions): Promise<ChatRequest> {
  const conv = o.conversation;
  // Taken for every request of the turn; kept in `build`, so a retry after an overflow has it too.
  const snapshot = o.prompt ? await o.prompt(conv) : undefined;
  if (snapshot) Object.assign(build, promptBuild(snapshot, conv));
  return o.context ? (await o.context.prepare(build, o.signal)).req : buildChatRequest(conv, o.defaults, build);
}

/** What the stream's events do to the answer, and the end of its Thinking block. */
function answerStream(
  o: TurnOptions,
  answer: AssistantMessage,
  now: () => number,
): { onEvent: NonNullable<StreamOptions['onEvent']>; thought: () => void } {
  const conv = o.conversation;
  // The Thinking block's duration: first reasoning to the first text or call after it.
  let thinkingFrom: number | undefined;
  const thought = () => {
    if (thinkingFrom !== undefined && answer.reasoningMs === undefined) answer.reasoningMs = now() - thinkingFrom;
  };
  const onEvent: NonNullable<StreamOptions['onEvent']> = (e) => {
    if (e.type === 'reasoning') thinkingFrom ??= now();
    else if (e.type === 'text' || e.type === 'tool_call') thought();
    switch (e.type) {
      case 'text':
        answer.content += e.text;
        stored(conv, answer.id).content = answer.content;
        o.callbacks.onDelta(answer.id, { content: e.text });
        return;
      case 'reasoning':
        answer.reasoning = (answer.reasoning ?? '') + e.text;
        stored(conv, answer.id).reasoning = answer.reasoning;
        o.callbacks.onDelta(answer.id, { reasoning: e.text });
        return;
      case 'model':
        if (e.model && e.model !== answer.requestedModel) answer.model = e.model;
        return;
      case 'usage':
        answer.usage = cleanUsage(e.usage);
        return;
      case 'finish':
        answer.finishReason = e.reason;
        return;
      case 'retry':
        answer.notices = [
          ...(answer.notices ?? []),
          l10n.t('Retried (attempt {0}) after {1} s: {2}', e.attempt, (e.delayMs / 1000).toFixed(1), e.message),
        ];
        o.callbacks.onMessage({ ...answer });
        return;
      case 'tool_call':
        return;
    }
  };
  return { onEvent, thought };
}

/** Sends the request (streamed or not); an overflow the server reports anyway is fitted again and sent once more. */
async function sendFitted(
  o: TurnOptions,
  first: ChatRequest,
  build: BuildOptions,
  answer: AssistantMessage,
  onEvent: NonNullable<StreamOptions['onEvent']>,
): Promise<ChatResult> {
  const send = async (r: ChatRequest): Promise<ChatResult> => {
    if (r.stream === false) {
      const res = await o.backend.chat(r, o.signal);
      if (res.message.reasoning_content) onEvent({ type: 'reasoning', text: res.message.reasoning_content });
      if (res.message.content) onEvent({ type: 'text', text: res.message.content });
      return res;
    }
    return o.backend.streamChat(r, { signal: o.signal, onEvent });
  };
  let req = first;
  let result: ChatResult;
  try {
    result = await send(req);
  } catch (err) {
    // An overflow the server reports although the request was fitted: learn what it says
    // (its window, its count), fit again and send once more. Nothing streamed yet, so no
    // text is lost; a second overflow is shown with its numbers.
    if (!o.context || o.signal.aborted || answer.content !== '' || !o.context.overflowed(err, req)) throw err;
    req = (await o.context.prepare(build, o.signal)).req;
    result = await send(req);
  }
  o.context?.observe(req, result.usage);
  return result;
}

/** Ends an answer whose request failed or was stopped, keeping what the user saw. */
function failed(
  o: TurnOptions,
  answer: AssistantMessage,
  err: unknown,
  now: () => number,
): Omit<TurnOutcome, 'rounds'> {
  const stopped = o.signal.aborted || isGatewayError(err, 'aborted');
  const partial = isGatewayError(err) ? err.partial : undefined;
  // Keep what the user saw; the partial result may know a little more (a last fragment).
  const partialText = partial?.message.content ?? '';
  if (partialText.length > answer.content.length && partialText.startsWith(answer.content))
    answer.content = partialText;
  if (partial?.usage) answer.usage = cleanUsage(partial.usage);
  if (partial?.model && partial.model !== answer.requestedModel) answer.model = partial.model;
  answer.status = stopped ? 'stopped' : 'error';
  if (!stopped) answer.error = o.context?.describe(err) ?? errorView(err);
  push(o, answer, now);
  return { status: stopped ? 'stopped' : 'error', error: answer.error, last: answer };
}

/** Takes the finished result into the answer; returns its tool calls, ids made unique. */
function settle(conv: Conversation, answer: AssistantMessage, result: ChatResult): ToolCall[] {
  answer.content = result.message.content ?? answer.content;
  if (result.message.reasoning_content) answer.reasoning = result.message.reasoning_content;
  const encrypted = reasoningToKeep(result.message.encrypted_reasoning, conv.profile);
  if (encrypted) answer.encryptedReasoning = encrypted;
  if (result.finishReason) answer.finishReason = result.finishReason;
  if (result.usage) answer.usage = cleanUsage(result.usage);
  if (result.model && result.model !== answer.requestedModel) answer.model = result.model;
  if (result.notices?.length) answer.notices = [...(answer.notices ?? []), ...result.notices];
  // Unique across the whole conversation, not only this answer: relays that number calls per
  // answer send `call_0` again, and cards, approvals and tool messages are all keyed by id.
  // Renamed here, before anything sees the calls, so the stored answer, the executor (and so
  // the cards it posts) and the tool messages all use the same id.
  const calls: ToolCall[] = callsUniqueIn(conv, answer.id, result.message.tool_calls ?? []);
  if (calls.length > 0) answer.toolCalls = calls;
  answer.status = 'done';
  return calls;
}

/** The round limit is reached: the answer says so, and each call gets a result saying it did not run. */
function roundsSpent(
  o: TurnOptions,
  answer: AssistantMessage,
  calls: ToolCall[],
  rounds: number,
  now: () => number,
): TurnOutcome {
  answer.notices = [
    ...(answer.notices ?? []),
    l10n.t(
      'Stopped after {0} rounds of tool calls (setting gatewayStudio.tools.maxRounds). Send a message such as "continue" to let the model go on.',
      rounds,
    ),
  ];
  push(o, answer, now);
  addToolResults(
    o,
    calls,
    calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: TOOL_NOT_RUN_LIMIT() })),
    now,
  );
  return { status: 'max-rounds', rounds, last: answer };
}

/** Runs the answer's calls and adds their results; returns how the turn ended when it cannot go on. */
async function runCalls(
  o: TurnOptions,
  executor: ToolExecutor,
  answer: AssistantMessage,
  calls: ToolCall[],
  now: () => number,
): Promise<Omit<TurnOutcome, 'rounds'> | undefined> {
  let results: ToolMessage[];
  try {
    results = await executor.execute(calls, {
      signal: o.signal,
      conversationId: o.conversation.id,
      answerId: answer.id,
    });
  } catch (err) {
    // Calls that finished before Stop keep their real result: an applied edit stays applied.
    const finished = err instanceof ToolRunStopped ? err.results : [];
    addToolResults(
      o,
      calls,
      finished,
      now,
      o.signal.aborted ? TOOL_STOPPED() : `${TOOL_NO_RESULT()} ${errorView(err).detail}`,
    );
    if (o.signal.aborted) {
      answer.status = 'stopped';
      push(o, answer, now);
      return { status: 'stopped', last: answer };
    }
    const error = errorView(err);
    answer.error = error;
    answer.status = 'error';
    push(o, answer, now);
    return { status: 'error', error, last: answer };
  }
  addToolResults(o, calls, results, now);
  return undefined;
}

/** The conversation's copy of a streaming answer, kept current per delta (a reloaded page gets the text so far). */
function stored(conv: Conversation, id: string): { content: string; reasoning?: string } {
  for (let i = conv.messages.length - 1; i >= 0; i--) {
    const m = conv.messages[i];
    if (m?.id === id && m.role === 'assistant') return m;
  }
  // Not in the conversation (cannot happen: pushed before streaming): a scratch object keeps the stream going.
  return { content: '' };
}

// What a tool message says when the tool gave nothing; the model reads these, in the user's language.
const TOOL_NOT_RUN_LIMIT = () => l10n.t('Not run: the limit of tool-call rounds for this message was reached.');
const TOOL_STOPPED = () => l10n.t('The user stopped this tool call before it finished.');
const TOOL_NO_RESULT = () => l10n.t('The tool gave no result.');

/** Appends exactly one tool message per call, in call order, filling gaps the executor left. */
function addToolResults(
  o: TurnOptions,
  calls: ToolCall[],
  results: ToolMessage[],
  now: () => number,
  fallback?: string,
): void {
  for (const call of calls) {
    const r = results.find((x) => x.tool_call_id === call.id);
    const msg: ToolResultMessage = {
      id: newId('t'),
      role: 'tool',
      toolCallId: call.id,
      name: call.function.name,
      content: r?.content ?? fallback ?? TOOL_NO_RESULT(),
      ...storedToolImages(r?.images, call.function.name),
      createdAt: now(),
    };
    push(o, msg, now);
  }
}

/** Adds or replaces a message in the conversation and reports it. */
function push(o: TurnOptions, m: ChatMessage, now: () => number): void {
  const msgs = o.conversation.messages;
  const i = msgs.findIndex((x) => x.id === m.id);
  const copy = structuredClone(m);
  if (i >= 0) msgs[i] = copy;
  else msgs.push(copy);
  if (copy.role === 'assistant' && copy.encryptedReasoning) trimReasoning(msgs);
  o.conversation.updatedAt = now();
  o.callbacks.onMessage(structuredClone(m));
}

function cleanUsage(u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }): Usage {
  const p = u.prompt_tokens ?? 0;
  const c = u.completion_tokens ?? 0;
  // Cached prompt tokens are billed at their own price; the gateway's own cost (api/chat/gatewayCost.ts) wins.
  const [cached, reported] = [cachedTokens(u), (u as { reported_cost?: unknown }).reported_cost];
  return {
    prompt_tokens: p,
    completion_tokens: c,
    total_tokens: u.total_tokens ?? p + c,
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    ...(typeof reported === 'object' && reported !== null ? { reported_cost: reported } : {}),
  };
}
