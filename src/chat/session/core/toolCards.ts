import type { Conversation, HostMessage, ToolCallUpdate } from '../../../shared/protocol';
import type { ConversationToolCall } from '../../tools/core/seam';

/**
 * The live states of the shown conversation's tool cards, kept so that a reloaded view gets them
 * again. Call ids are unique only within a conversation (every one may have a `call_0`).
 */
export class ToolCards {
  private readonly byCall = new Map<string, ToolCallUpdate>();

  constructor(private readonly broadcast: (msg: HostMessage) => void) {}

  /**
   * Shows or updates a card of the conversation `shownId`. A card of another conversation (a turn
   * stopped when the user left it) is dropped: the call's outcome is in its own conversation's
   * messages, from which its card is drawn when that conversation is opened again.
   */
  post(posted: ConversationToolCall, shownId: string): void {
    const { conversationId, ...update } = posted;
    if (conversationId !== shownId) return;
    this.byCall.set(update.callId, update);
    this.broadcast({ type: 'tools/call', update });
  }

  messages(): HostMessage[] {
    return [...this.byCall.values()].map((update) => ({ type: 'tools/call', update }));
  }

  /** Another conversation is shown. */
  clear(): void {
    this.byCall.clear();
  }

  /** Forgets the cards of calls that no answer left in `c` makes (after a cut, a regenerate). */
  keepCallsOf(c: Conversation): void {
    for (const id of [...this.byCall.keys()]) {
      if (!c.messages.some((x) => x.role === 'assistant' && x.toolCalls?.some((call) => call.id === id)))
        this.byCall.delete(id);
    }
  }
}
