// A tool call's card as the runner posts it, and how its text is shown: arguments pretty-printed,
// long results cut with a note.
import type { ToolCall } from '../../../api/chat/wire';
import type { ToolPreview } from './approval';
import type { Tool } from './runner';

/** Card state changes, in the shape of the protocol's `tools/call` update plus the conversation. */
export interface ToolCardUpdate {
  conversationId: string;
  callId: string;
  name: string;
  argumentsJson: string;
  state: 'awaiting-approval' | 'running' | 'done' | 'denied' | 'error';
  readOnly: boolean;
  resultPreview?: string;
  warning?: string;
  askEveryTime?: boolean;
  preview?: ToolPreview;
  /** What the hooks around the call printed and how they ended. */
  hookOutput?: string;
  /** Who provides the tool, when not us (an MCP server): said on the card. */
  source?: string;
}

/** A call's card: each post carries the call's caution (its warnings) as it stands then. */
export interface Card {
  caution: Pick<ToolCardUpdate, 'warning' | 'askEveryTime' | 'hookOutput'>;
  post(state: ToolCardUpdate['state'], readOnly: boolean, resultPreview?: string, argumentsJson?: string): void;
}

export function cardFor(
  onUpdate: ((u: ToolCardUpdate) => void) | undefined,
  call: ToolCall,
  conversationId: string,
  tool: Pick<Tool, 'preview' | 'source'> | undefined,
): Card {
  const { preview, source } = tool ?? {};
  const card: Card = {
    caution: {},
    post: (state, readOnly, resultPreview, argumentsJson = prettyArgs(call.function.arguments)) =>
      onUpdate?.({
        conversationId,
        callId: call.id,
        name: call.function.name,
        argumentsJson,
        state,
        readOnly,
        ...(resultPreview !== undefined ? { resultPreview } : {}),
        ...card.caution,
        ...(preview ? { preview } : {}),
        ...(source ? { source } : {}),
      }),
  };
  return card;
}

/** Adds what the hooks around a call said to its card (shown with every later post). */
export function noteHooks(card: Card, notes: string | undefined): void {
  if (!notes) return;
  card.caution = { ...card.caution, hookOutput: [card.caution.hookOutput, notes].filter(Boolean).join('\n\n') };
}

/** Arguments for display: pretty JSON when they parse, else the raw text. */
export function prettyArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** Cuts long text and says so, so the model knows it did not see everything. */
export function clip(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${what} was cut at ${max} of ${text.length} characters]`;
}
