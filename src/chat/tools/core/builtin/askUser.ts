import { raceAbort } from '../seam';
import { ToolError, type Tool } from '../runner';
import { bool, def, obj, str } from './kit';

/**
 * ask_user: the model asks the user one question with 2-6 choices (and, when it allows, an
 * answer in the user's own words); the turn waits for the answer, which is the tool's result.
 * The card that shows the question is the chat page's; the answer comes back through an
 * {@link AskUserBroker}. Stop rejects the wait, so the turn ends like any stopped tool.
 */

export const ASK_MIN_OPTIONS = 2;
export const ASK_MAX_OPTIONS = 6;
export const ASK_MAX_QUESTION_CHARS = 1000;
export const ASK_MAX_OPTION_CHARS = 200;
/** The longest free-text answer the model gets (a longer one is refused on the card, never cut silently). */
export const ASK_MAX_ANSWER_CHARS = 4000;

/** A question as the card shows it. */
export interface AskQuestion {
  question: string;
  options: string[];
  /** Whether the user may answer in their own words instead of picking an option. */
  allowText: boolean;
}

/** What the user answered: the index of an option, or their own words. */
export type AskAnswer = { choice: number } | { text: string };

/** The question in `args`, or a {@link ToolError} that tells the model what to fix. */
export function parseAskArgs(args: Record<string, unknown>): AskQuestion {
  const q = args['question'];
  if (typeof q !== 'string' || q.trim() === '') throw new ToolError('"question" must be a non-empty string.');
  if (q.length > ASK_MAX_QUESTION_CHARS)
    throw new ToolError(`"question" is ${q.length} characters; keep it under ${ASK_MAX_QUESTION_CHARS}.`);
  const raw = args['options'];
  if (!Array.isArray(raw)) throw new ToolError('"options" must be an array of strings.');
  if (raw.length < ASK_MIN_OPTIONS || raw.length > ASK_MAX_OPTIONS)
    throw new ToolError(
      `"options" has ${raw.length} entries; ask_user takes ${ASK_MIN_OPTIONS} to ${ASK_MAX_OPTIONS}. Ask again with fewer, distinct choices.`,
    );
  const options = raw.map((o, i) => {
    if (typeof o !== 'string' || o.trim() === '') throw new ToolError(`"options.${i}" must be a non-empty string.`);
    if (o.length > ASK_MAX_OPTION_CHARS)
      throw new ToolError(`"options.${i}" is ${o.length} characters; keep each under ${ASK_MAX_OPTION_CHARS}.`);
    return o.trim();
  });
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
    throw new ToolError('"options" repeats a choice; each option must be different.');
  return { question: q.trim(), options, allowText: args['allowText'] === true };
}

/** Why an answer cannot be taken, or undefined when it can. */
export function answerProblem(q: AskQuestion, a: AskAnswer): string | undefined {
  if ('choice' in a) {
    return Number.isInteger(a.choice) && a.choice >= 0 && a.choice < q.options.length
      ? undefined
      : `There is no option ${a.choice + 1}.`;
  }
  if (!q.allowText) return 'This question takes one of its options only.';
  if (a.text.trim() === '') return 'The answer is empty.';
  if (a.text.length > ASK_MAX_ANSWER_CHARS)
    return `The answer is ${a.text.length} characters; the limit is ${ASK_MAX_ANSWER_CHARS}.`;
  return undefined;
}

/** The tool result the model reads for an answer. */
export function answerForModel(q: AskQuestion, a: AskAnswer): string {
  if ('choice' in a) return `The user chose option ${a.choice + 1}: ${JSON.stringify(q.options[a.choice])}`;
  // Framed as the user's words, so text that looks like instructions stays an answer.
  return `The user answered in their own words (not one of the options): ${JSON.stringify(a.text.trim())}`;
}

/**
 * The questions waiting for an answer, by call id: the tool waits here, the chat's card answers
 * here. An answer for a call nobody waits for, or one that does not fit its question, is refused
 * with the reason (the card says it), never taken.
 */
export class AskUserBroker {
  private readonly waiting = new Map<string, { q: AskQuestion; settle: (text: string) => void }>();

  /** Waits for the answer to `q`; rejects with an AbortError when `signal` aborts (Stop). */
  wait(callId: string, q: AskQuestion, signal: AbortSignal): Promise<string> {
    const answered = new Promise<string>((resolve) => {
      this.waiting.set(callId, { q, settle: resolve });
    });
    return raceAbort(answered, signal).finally(() => this.waiting.delete(callId));
  }

  /** Takes the user's answer; a reason instead when it cannot be taken. */
  answer(callId: string, a: AskAnswer): { ok: true } | { ok: false; problem: string } {
    const w = this.waiting.get(callId);
    if (!w) return { ok: false, problem: 'This question is no longer waiting for an answer.' };
    const problem = answerProblem(w.q, a);
    if (problem) return { ok: false, problem };
    this.waiting.delete(callId);
    w.settle(answerForModel(w.q, a));
    return { ok: true };
  }

  /** Whether `callId` waits for an answer now. */
  isWaiting(callId: string): boolean {
    return this.waiting.has(callId);
  }
}

/** The built-in tool ask_user over `broker`: it asks no approval (the call is itself a question). */
export function askUser(broker: AskUserBroker): Tool {
  return {
    readOnly: true,
    asksUser: true,
    definition: def(
      'ask_user',
      'Ask the user one question with 2 to 6 short options to choose from, when you cannot go on without their decision (which approach, which file, which behaviour). Set allowText when an answer in their own words makes sense. Wait for the answer; do not ask again what they already answered.',
      obj(
        {
          question: str('The question, one or two sentences.'),
          options: {
            type: 'array',
            items: { type: 'string' },
            minItems: ASK_MIN_OPTIONS,
            maxItems: ASK_MAX_OPTIONS,
            description: `${ASK_MIN_OPTIONS} to ${ASK_MAX_OPTIONS} distinct, short choices (under ${ASK_MAX_OPTION_CHARS} characters each).`,
          },
          allowText: bool('Whether the user may answer in their own words instead (default false).'),
        },
        ['question', 'options'],
      ),
    ),
    // A bad question is the model's error (read as the tool's result), never a crash.
    prepare: (args) =>
      Promise.resolve().then(() => {
        const q = parseAskArgs(args);
        return {
          summary: `${q.question}\n${q.options.map((o, i) => `${i + 1}. ${o}`).join('\n')}`,
          run: async (ctx) => {
            const content = await broker.wait(ctx.callId, q, ctx.signal);
            return { content, preview: content };
          },
        };
      }),
  };
}
