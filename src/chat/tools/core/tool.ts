/**
 * What a chat tool is, apart from the runner that validates, approves and runs its calls
 * (./runner.ts re-exports these, so tools import them from there or here alike).
 */
import type { ImagePart, ToolDefinition } from '../../../api/chat/wire';
import type { ToolPreview } from './approval';
import type { GuardKind } from './protectedFiles';
import type { ToolExecutionContext } from './seam';

/** What a tool returns: `content` (and `images`) go to the model, `preview` (shorter) to the card. */
export interface ToolResult {
  content: string;
  preview?: string;
  images?: ImagePart[];
}

/** Passed to every step of a tool; with the turn's scope and subagent depth (run_subagent reads them). */
export interface ToolCallContext extends Pick<ToolExecutionContext, 'allowed' | 'allowedFor' | 'subagent'> {
  signal: AbortSignal;
  conversationId: string;
  callId: string;
  /** The assistant message that made the call, when the chat says (checkpoints group by it). */
  answerId?: string;
}

/**
 * A call that passed validation and the tool's own checks, ready to show and run. `prepare` does
 * the work that can fail before the user is asked (path checks, computing an edit), so the user
 * never approves something that cannot happen.
 */
export interface PreparedCall {
  /** Extra text for the approval prompt (the full command line, the file and size of a change). */
  summary?: string;
  /** A line the card shows while it asks, beside any warning (a billed call's price). */
  note?: string;
  /** Shows the proposed change (a diff) before approval; optional. */
  show?(): Promise<void>;
  run(ctx: ToolCallContext): Promise<ToolResult>;
  /** Closes what `show` opened; called whatever the outcome. */
  dispose?(): void;
  /**
   * Set when the call touches a protected or secret file (./protectedFiles): it then asks every
   * time, whatever trust the tool has, and its card says why.
   */
  guard?: GuardKind;
  /** Trust asked and kept per call, not per tool (fetch_url: per domain, per user), when set. */
  trust?: { key: string; store: TrustStore };
}

/** One tool: its wire definition, whether it only reads, and how to prepare a call. */
export interface Tool {
  definition: ToolDefinition;
  /** Read-only tools may be allowed without asking; changing tools need explicit trust. */
  readOnly: boolean;
  /**
   * Where the tool's trust is kept, when that is not its wire name: an outside tool's wire name
   * can depend on what else is listed, so its trust follows its own identity instead.
   */
  trustKey?: string;
  /** How a call is shown for approval beyond its card (approvers read this, never the name). */
  preview?: ToolPreview;
  /** Who provides it, when not us (an MCP server), for its card. */
  source?: string;
  /** The call is itself a question to the user (ask_user): it runs without an approval first. */
  asksUser?: boolean;
  prepare(args: Record<string, unknown>, ctx: ToolCallContext): Promise<PreparedCall>;
}

/** Per-tool trust (workspace-scoped in VS Code). */
export interface TrustStore {
  isTrusted(name: string): boolean;
  trust(name: string): void | Promise<void>;
}
