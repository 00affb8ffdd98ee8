/**
 * The seam between the chat turn runner (`runTurn` in `turnRunner.ts`) and the tools feature
 * (`src/chat/tools`). The runner knows nothing about what a tool does: it sends
 * {@link ToolExecutor.definitions} with each request, and when an answer ends with tool calls it
 * hands them to {@link ToolExecutor.execute} and sends the returned tool messages back to the
 * model. Approval, trust and the webview cards live on the tools side.
 *
 * Definitions, calls and tool messages are the wire types of `src/api/chat/wire.ts`, so they are sent
 * as they are.
 */
import type { ToolCall, ToolChoice, ToolDefinition, ToolMessage } from '../../../api/chat/wire';
import type { ToolCallUpdate } from '../../../shared/protocol';

/** What `execute` gets besides the calls. */
export interface ToolExecutionContext {
  /** Aborted when the user presses Stop: pending approvals resolve as denied, running tools stop. */
  signal: AbortSignal;
  /** The conversation the calls belong to (for per-conversation "always allow" and cards). */
  conversationId: string;
  /** The assistant message whose calls these are (checkpoints group file changes by it). */
  answerId?: string;
  /**
   * The tools this turn may use (an agent's, a prompt file's, the tool mode's: see ./scope): a
   * call to any other tool is refused, not run. Absent: every enabled tool.
   */
  allowed?: ToolAllow;
  /** Who the refusal names ("the Plan agent"). */
  allowedFor?: string;
  /** Set when a subagent makes the calls (`chat/subagents`): its depth and agent's name. */
  subagent?: { depth: number; agent: string };
}

/** Whether a tool may be offered and run, by wire name and whether it only reads. */
export type ToolAllow = (name: string, readOnly: boolean) => boolean;

/**
 * How `execute` rejects after Stop when some calls had already finished: their effects are real
 * (a file may have been written), so `results` carries their tool messages and only the calls
 * not yet finished are answered as stopped.
 */
export class ToolRunStopped extends Error {
  constructor(readonly results: ToolMessage[]) {
    super('The tool run was stopped.');
    this.name = 'AbortError';
  }
}

/** Implemented by the tools feature; the chat calls it, never the other way round. */
export interface ToolExecutor {
  /** Tools sent with the next request (only the enabled ones); empty sends no `tools` field. */
  definitions(): ToolDefinition[];
  /** The enabled tools that only read (for a model whose window holds no more); absent: none. */
  readOnlyDefinitions?(): ToolDefinition[];
  /**
   * `tool_choice` for a request, or undefined to leave it out (gateway default auto). `afterTools`:
   * the request answers tool results of the same turn (a forced tool applies to the first request
   * after the user's message only). Reading it changes nothing.
   */
  toolChoice(o?: { afterTools?: boolean }): ToolChoice | undefined;
  /**
   * Runs (or refuses) every call of one assistant turn and returns exactly one tool message per
   * call, in the order of `calls`. Must not throw for a denied or failed tool: that is a tool
   * message telling the model what happened. Rejects only when `ctx.signal` aborts (then
   * preferably with {@link ToolRunStopped} carrying the calls that finished).
   *
   * The ids of `calls` are the stored ones, unique across the whole conversation (a relay's
   * reused `call_0` arrives renamed, e.g. `call_0_2`), so they can key cards and approvals.
   */
  execute(calls: ToolCall[], ctx: ToolExecutionContext): Promise<ToolMessage[]>;
}

/**
 * A tool card's new state, with the conversation whose turn made the call: call ids (`call_0`)
 * repeat across conversations, and a stopped turn reports its calls after the user has left it.
 */
export type ConversationToolCall = ToolCallUpdate & { conversationId: string };

/** Throws an AbortError when the run was stopped. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}

function abortError(): Error {
  const e = new Error('The tool run was stopped.');
  e.name = 'AbortError';
  return e;
}

/** `p`, or an AbortError as soon as `signal` aborts (the listener is removed either way). */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
