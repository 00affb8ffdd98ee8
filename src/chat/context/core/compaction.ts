/**
 * Fits a request to the model's context window before it is sent, without changing the stored
 * conversation's messages:
 * 1. the conversation's summary (if any) stands in for the messages it covers;
 * 2. old tool results are elided, oldest first, the most recent ones kept, each replaced by a note
 *    that it can be read again;
 * 3. if that is not enough, the turns before the latest user message are summarised by the model
 *    into one summary (kept on the conversation as `compaction`, shown as a collapsible block);
 * 4. `max_tokens` is clamped so that prompt + max_tokens fits (llama.cpp and vLLM refuse otherwise).
 * The latest user message and everything after it (a tool call and its results) are never
 * summarised or split. When the fixed parts alone (system prompt and tool definitions) leave no
 * room, {@link ContextTooSmall} says so with the figures.
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest, ChatMessage as WireMessage } from '../../../api/chat/wire';
import type { Conversation } from '../../../shared/protocol';
import { formatAttachment } from '../../conversation/core/attachments';
import { answerReserve, totalOf, type Breakdown, type ModelLimits, type TokenEstimator } from './contextWindow';
import {
  buildChatRequest,
  effectiveModel,
  effectiveParams,
  formatContext,
  type BuildOptions,
  type RequestDefaults,
} from '../../conversation/core/request';

/** Share of the window left unused for the estimate's error. */
export const SAFETY_MARGIN = 0.03;
/** Tool results never elided: the most recent ones are what the model is working with. */
export const KEEP_RECENT_TOOL_RESULTS = 2;
/** Tool results shorter than this are left alone: their note would save next to nothing. */
const ELIDE_MIN_CHARS = 400;
/** A summary cut below this would say nothing; the request is then refused with its figures instead. */
const MIN_SUMMARY_TOKENS = 64;

/** The conversation's messages as the model sees them, fitted; the stored ones are unchanged. */
export interface Fitted {
  req: ChatRequest;
  breakdown: Breakdown;
  /** Estimated prompt tokens of `req`. */
  prompt: number;
  reserve: number;
  window: number;
  /** Tool results replaced by a note in this request. */
  elided: number;
  /** True when this fit made a new summary. */
  summarised: boolean;
  /** `max_tokens` as asked, when the fit lowered it. */
  clampedFrom?: number;
}

/** The request cannot be made to fit; `fixed` when the system prompt and the tools alone leave no room. */
export class ContextTooSmall extends Error {
  constructor(
    readonly reason: 'fixed' | 'latest',
    readonly figures: { window: number; system: number; tools: number; reserve: number; prompt: number },
  ) {
    super(
      reason === 'fixed'
        ? l10n.t(
            "The system prompt ({0} tokens) and the tool definitions ({1} tokens) with room for an answer ({2}) do not fit the model's context window of {3} tokens.",
            figures.system,
            figures.tools,
            figures.reserve,
            figures.window,
          )
        : l10n.t(
            "The latest message and its tool results need about {0} tokens with room for an answer ({1}); the model's context window is {2} tokens.",
            figures.prompt,
            figures.reserve,
            figures.window,
          ),
    );
    this.name = 'ContextTooSmall';
  }
}

/** The summary request failed; the conversation was left as it was. */
export class CompactionFailed extends Error {
  constructor(readonly detail: string) {
    super(l10n.t('The conversation could not be summarised: {0}', detail));
    this.name = 'CompactionFailed';
  }
}

/** Asks the model for a summary (one request, not streamed); rejects on failure. */
export type Summarise = (req: ChatRequest, signal: AbortSignal) => Promise<string>;

export interface FitOptions {
  /** Mutated only by adding or replacing `compaction` when a summary is made. */
  conversation: Conversation;
  defaults: RequestDefaults;
  build: BuildOptions;
  limits: ModelLimits;
  estimator: TokenEstimator;
  summarise: Summarise;
  signal: AbortSignal;
  now: () => number;
  /** Set by the manual action: summarise now even if the request fits. */
  forceSummary?: boolean;
}

/** The request for the conversation as it is now, its summary in place of what it covers. */
export function buildFittedView(c: Conversation, defaults: RequestDefaults, build: BuildOptions): ChatRequest {
  const cut = summaryCut(c);
  const view: Conversation = cut > 0 ? { ...c, messages: c.messages.slice(cut) } : c;
  const req = buildChatRequest(view, defaults, build);
  if (cut > 0 && c.compaction) injectSummary(req, c.compaction.summary);
  return req;
}

/** Index of the first message after the summary (0 when there is none or it no longer matches). */
function summaryCut(c: Conversation): number {
  if (!c.compaction) return 0;
  const i = c.messages.findIndex((m) => m.id === c.compaction?.throughId);
  return i < 0 ? 0 : i + 1;
}

function injectSummary(req: ChatRequest, summary: string): void {
  const text = `${l10n.t('Summary of the earlier conversation (its messages are not repeated here):')}\n${summary}`;
  const sys = req.messages[0];
  if (sys?.role === 'system' && typeof sys.content === 'string') sys.content = `${sys.content}\n\n${text}`;
  else req.messages.unshift({ role: 'system', content: text });
}

/** Quoted texts of the user messages the request holds (@-mentions, editor context): attachments for the meter. */
export function attachmentTexts(c: Conversation): string[] {
  const cut = summaryCut(c);
  return c.messages
    .slice(cut)
    .flatMap((m) =>
      m.role === 'user' ? [...(m.attachments ?? []).map(formatAttachment), ...m.contexts.map(formatContext)] : [],
    );
}

/** Builds the request and makes it fit (see the module comment). */
export async function fitToWindow(o: FitOptions): Promise<Fitted> {
  const window = o.limits.window;
  const maxTokens = effectiveParams(o.conversation, o.defaults.params).max_tokens ?? undefined;
  const reserve = answerReserve(window, maxTokens, o.limits.maxOutput);
  // A margin for the estimate's error (a few percent against the server's count, see the bench).
  const budget = window - reserve - Math.ceil(window * SAFETY_MARGIN);
  let summarised = false;

  let req = buildFittedView(o.conversation, o.defaults, o.build);
  let elided = elideToFit(req, o.estimator, budget, KEEP_RECENT_TOOL_RESULTS);
  if (o.forceSummary || o.estimator.count(req) > budget) {
    if (canSummarise(o.conversation)) {
      await summariseEarlier(o);
      summarised = true;
      req = buildFittedView(o.conversation, o.defaults, o.build);
      elided = elideToFit(req, o.estimator, budget, KEEP_RECENT_TOOL_RESULTS);
      // The summary within its own room can still crowd out a long latest message: it gives way
      // to what is left (the latest message is never cut for it).
      const over = o.estimator.count(req) - budget;
      const made = o.conversation.compaction;
      if (over > 0 && made) {
        const room = o.estimator.text(made.summary) - over;
        if (room >= MIN_SUMMARY_TOKENS) {
          made.summary = fitSummary(made.summary, room, o.estimator);
          req = buildFittedView(o.conversation, o.defaults, o.build);
          elided = elideToFit(req, o.estimator, budget, KEEP_RECENT_TOOL_RESULTS);
        }
      }
    }
  }
  if (o.estimator.count(req) > budget) {
    const b = o.estimator.breakdown(req, attachmentTexts(o.conversation));
    if (b.system + b.tools + reserve > window)
      throw new ContextTooSmall('fixed', { window, system: b.system, tools: b.tools, reserve, prompt: totalOf(b) });
    // Only the latest turn is left: its older tool results may go too, but never the last one.
    elided += elideToFit(req, o.estimator, budget, 1);
    // A single result larger than the room (a 30,000-character read in an 8k window): its
    // beginning is sent with a note of how much was cut, rather than no answer at all.
    if (o.estimator.count(req) > budget) elided += cutToFit(req, o.estimator, budget);
    const prompt = o.estimator.count(req);
    if (prompt > budget)
      throw new ContextTooSmall('latest', { window, system: b.system, tools: b.tools, reserve, prompt });
  }
  const breakdown = o.estimator.breakdown(req, attachmentTexts(o.conversation));
  const prompt = totalOf(breakdown);
  let clampedFrom: number | undefined;
  // What the server checks is prompt + max_tokens <= window; an unset max_tokens is left unset
  // (the server then stops at the window itself).
  if (req.max_tokens !== undefined && prompt + req.max_tokens > window) {
    clampedFrom = req.max_tokens;
    req.max_tokens = Math.max(1, window - prompt);
  }
  return { req, breakdown, prompt, reserve, window, elided, summarised, ...(clampedFrom ? { clampedFrom } : {}) };
}

/**
 * Replaces tool results by a note, oldest first, keeping the `keep` most recent, until the
 * request's estimate is within `budget`. Returns how many were elided.
 */
export function elideToFit(req: ChatRequest, est: TokenEstimator, budget: number, keep: number): number {
  let total = est.count(req);
  if (total <= budget) return 0;
  const names = new Map<string, string>();
  for (const m of req.messages)
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
  const tools = req.messages
    .map((m, i) => ({ m, i }))
    .filter((x): x is { m: Extract<WireMessage, { role: 'tool' }>; i: number } => x.m.role === 'tool');
  const candidates = tools.slice(0, Math.max(0, tools.length - keep));
  let n = 0;
  for (const { m } of candidates) {
    if (total <= budget) break;
    if (m.content.length < ELIDE_MIN_CHARS || isElided(m.content)) continue;
    const before = est.text(m.content);
    m.content = elisionNote(names.get(m.tool_call_id) ?? 'tool', m.content.length);
    total -= before - est.text(m.content);
    n++;
  }
  return n;
}

/**
 * Shortens the latest tool results, newest first, to their beginning plus a note, until the
 * request fits. Returns how many were cut.
 */
function cutToFit(req: ChatRequest, est: TokenEstimator, budget: number): number {
  let n = 0;
  const tools = req.messages.filter((m): m is Extract<WireMessage, { role: 'tool' }> => m.role === 'tool').reverse();
  for (const m of tools) {
    const over = est.count(req) - budget;
    if (over <= 0) break;
    if (isElided(m.content)) continue;
    const keep = Math.max(0, m.content.length - Math.ceil((over + 60) * est.charsPerToken * 1.1));
    const left = m.content.length - keep;
    m.content = `${m.content.slice(0, keep)}\n${ELIDED_MARK} ${l10n.t('{0} more characters of this result were left out to fit the context window. Read the rest in smaller parts if you need it.', left)}`;
    n++;
  }
  return n;
}

const ELIDED_MARK = '[elided]';

export function elisionNote(tool: string, chars: number): string {
  return `${ELIDED_MARK} ${l10n.t('This result of {0} ({1} characters) was left out to fit the context window. Call the tool again if you need it.', tool, chars)}`;
}

function isElided(s: string): boolean {
  return s.startsWith(ELIDED_MARK);
}

/** Said at the end of a summary that was cut to fit (in the summary itself, so the model knows too). */
export const SUMMARY_SHORTENED_NOTE = '[summary shortened to fit the context window]';

/** The summary within `roomTokens`, its beginning kept and {@link SUMMARY_SHORTENED_NOTE} added when cut. */
export function fitSummary(summary: string, roomTokens: number, est: TokenEstimator): string {
  if (est.text(summary) <= roomTokens) return summary;
  const suffix = `\n${SUMMARY_SHORTENED_NOTE}`;
  let keep = Math.floor((summary.length * roomTokens) / Math.max(1, est.text(summary)));
  let cut = `${summary.slice(0, keep).trimEnd()}${suffix}`;
  while (keep > 0 && est.text(cut) > roomTokens) {
    keep = Math.floor(keep * 0.9);
    cut = `${summary.slice(0, keep).trimEnd()}${suffix}`;
  }
  return cut;
}

/** Index of the latest user message: it and everything after it are never summarised. */
function latestUserIndex(c: Conversation): number {
  for (let i = c.messages.length - 1; i >= 0; i--) if (c.messages[i]?.role === 'user') return i;
  return -1;
}

/** True when there are messages before the latest user message that the summary does not cover yet. */
export function canSummarise(c: Conversation): boolean {
  return latestUserIndex(c) > summaryCut(c);
}

/** Largest tool result quoted into the summary request, in characters. */
const TRANSCRIPT_TOOL_CHARS = 1500;

/**
 * Summarises the messages before the latest user message (with the previous summary) into a new
 * `compaction`. On failure throws {@link CompactionFailed} and leaves the conversation as it was.
 */
export async function summariseEarlier(o: FitOptions): Promise<void> {
  const c = o.conversation;
  const end = latestUserIndex(c);
  const start = summaryCut(c);
  if (end <= start) return;
  const covered = c.messages.slice(start, end);
  const window = o.limits.window;
  const answer = Math.max(64, Math.min(1024, Math.floor(window / 4)));
  // The instructions and the transcript must themselves fit: the transcript keeps its newest part.
  const budgetChars = Math.max(1000, Math.floor((window - answer - 300) * o.estimator.charsPerToken * 0.9));
  const lines: string[] = [];
  for (const m of covered) {
    if (m.role === 'user')
      lines.push(
        `User: ${[...(m.attachments ?? []).map(formatAttachment), m.text, ...m.contexts.map(formatContext)].join('\n\n')}`,
      );
    else if (m.role === 'assistant') {
      if (m.content) lines.push(`Assistant: ${m.content}`);
      for (const call of m.toolCalls ?? [])
        lines.push(`Assistant called ${call.function.name}(${call.function.arguments})`);
    } else {
      const body =
        m.content.length > TRANSCRIPT_TOOL_CHARS ? `${m.content.slice(0, TRANSCRIPT_TOOL_CHARS)} …` : m.content;
      lines.push(`Result of ${m.name}: ${body}`);
    }
  }
  let transcript = lines.join('\n\n');
  const previous = c.compaction && start > 0 ? `Earlier summary:\n${c.compaction.summary}\n\n` : '';
  const room = budgetChars - previous.length;
  if (transcript.length > room) transcript = `…${transcript.slice(transcript.length - Math.max(0, room))}`;
  const model = effectiveModel(c, o.defaults);
  const req: ChatRequest = {
    model,
    stream: false,
    max_tokens: answer,
    messages: [
      {
        role: 'system',
        content:
          "Summarise the conversation below so that an assistant can go on with it without the original. Keep the user's goals and requests, decisions made, facts learnt, file paths, code changed, results of tools that still matter (briefly), open questions and what was about to happen next. Plain text, as short as it can be while keeping those.",
      },
      { role: 'user', content: `${previous}${transcript}` },
    ],
  };
  let summary: string;
  try {
    summary = (await o.summarise(req, o.signal)).trim();
  } catch (err) {
    throw new CompactionFailed(err instanceof Error ? err.message : String(err));
  }
  if (!summary) throw new CompactionFailed(l10n.t('the model answered with an empty summary'));
  // A model that runs on past max_tokens (or a relay that ignores it) must not leave a summary
  // that itself overflows every later request: it is cut to the room it was given.
  summary = fitSummary(summary, answer, o.estimator);
  const last = c.messages[end - 1];
  if (!last) return;
  c.compaction = { summary, throughId: last.id, messageCount: end, createdAt: o.now() };
}
