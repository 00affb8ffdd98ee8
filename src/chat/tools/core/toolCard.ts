// A tool call's card as the runner posts it, and how its text is shown: arguments pretty-printed,
// long results cut with a note.
import type { ToolCall } from '../../../api/chat/wire';
import type { ToolPreview } from './approval';
import type { ToolCardUpdate } from './runner';

/** A call's card: each post carries the call's caution (its warnings) as it stands then. */
export interface Card {
  caution: Pick<ToolCardUpdate, 'warning' | 'askEveryTime'>;
  post(state: ToolCardUpdate['state'], readOnly: boolean, resultPreview?: string, argumentsJson?: string): void;
}

export function cardFor(
  onUpdate: ((u: ToolCardUpdate) => void) | undefined,
  call: ToolCall,
  conversationId: string,
  preview: ToolPreview | undefined,
): Card {
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
      }),
  };
  return card;
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
