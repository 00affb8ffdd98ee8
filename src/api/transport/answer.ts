/**
 * What a call answers, in every dialect (chat completions, Responses): the assembled message with
 * its tool calls, reasoning and usage. It sits in transport because a failed stream's
 * {@link GatewayError} carries the answer so far; chat/wire.ts re-exports it with the rest of the
 * wire vocabulary. Types only: it imports nothing.
 */

/**
 * A tool call made by the assistant. `arguments` is JSON text as sent by the model, maybe
 * invalid: the tool side validates it and answers with a tool message saying what was wrong.
 */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Token usage (spec 2.2); servers may add more fields, which are kept. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [extra: string]: unknown;
}

/** A Responses reasoning output item kept for replay (`store: false` leaves the server nothing to remember). */
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: unknown[];
  encrypted_content: string;
}

/** An answer's encrypted reasoning and the model (as sent) it came from: only that model can read it. */
export interface EncryptedReasoning {
  model: string;
  items: ReasoningItem[];
}

/** A web page a web-searching answer cites (a `url_citation` annotation). */
export interface Citation {
  url: string;
  title?: string;
}

/** The outcome of a chat call, streamed or not. */
export interface ChatResult {
  message: {
    role: 'assistant';
    content: string | null;
    tool_calls?: ToolCall[];
    reasoning_content?: string;
    /** Set by a Responses answer that came with encrypted reasoning. */
    encrypted_reasoning?: EncryptedReasoning;
  };
  finishReason?: string;
  usage?: Usage;
  model?: string;
  id?: string;
  /** Lines for the user about how the answer came (chat/failover: which profile answered and why). */
  notices?: string[];
  /** The pages a web search found and the answer cites (also listed as links under its text). */
  citations?: Citation[];
  /** How many web searches the relay ran for this answer, when it says. */
  webSearches?: number;
}
