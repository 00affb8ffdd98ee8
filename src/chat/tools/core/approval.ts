// What a tool call that needs the user's yes asks with, and what it gets back: the approvers
// (the chat card, VS Code's quick pick or modal) implement the other side. The answer is the
// protocol's ToolDecision, the one name the card, the host and the runner use.
/** `diff`: the change opens in a diff editor; `command`: a command line, shown whole with its warnings. */
import type { ToolPreview } from '../../../shared/protocol';
export type { ToolPreview };

/** What the approver shows. */
export interface ApprovalRequest {
  conversationId: string;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  /** Arguments pretty-printed, as the card shows them. */
  argumentsJson: string;
  readOnly: boolean;
  preview?: ToolPreview;
  summary?: string;
  /** Why this call asks even though it might not otherwise (protected file, secrets, Restricted Mode). */
  warning?: string;
  /** The call asks every time: no "always allow" is offered or honoured. */
  askEveryTime?: boolean;
  /** The workspace is not trusted (Restricted Mode). */
  untrustedWorkspace?: boolean;
  /**
   * Settles once the call's preview (a diff) is open: where to ask depends on what is on screen
   * then. It settles with a warning when the preview could not be opened (add it to `warning`).
   */
  shown?: Promise<string | undefined>;
  signal: AbortSignal;
}

/** The card's warning when a change's diff could not be opened (the host localises it). */
export const PREVIEW_FAILED_WARNING =
  'The diff view of this change could not be opened: review the change in the text of this request before allowing it.';
