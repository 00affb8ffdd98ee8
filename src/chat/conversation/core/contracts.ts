// What the chat's capabilities plug into each other by, kept below all of them: where chat state
// is kept (history, context guard, session), the record of a file change the changing tools hand
// to the checkpoints before they write, and the ids of the chat's views (the tools look for them).

/**
 * What the store needs from persistence; `vscode.Memento` (workspaceState) satisfies it as-is,
 * and tests pass an in-memory map. Per workspace, so conversations follow the project.
 */
export interface KeyValueStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
  keys(): readonly string[];
}

/** One change a tool is about to apply (called after approval, before the file is written). */
export interface RecordedChange {
  conversationId: string;
  /** The assistant message whose tool call makes the change (the call id when unknown). */
  answerId: string;
  callId: string;
  absolute: string;
  relative: string;
  /** False when the change creates the file. */
  existed: boolean;
  before: string;
  after: string;
}

/** What the changing tools call before applying; returns a note for the card when not recorded. */
export interface ChangeRecorder {
  record(change: RecordedChange): Promise<string | undefined>;
}

/** Ids that package.json contributes; tests and other features refer to them. */
export const CHAT_VIEW_ID = 'gatewayStudio.chatView';
export const CHAT_PANEL_TYPE = 'gatewayStudio.chatPanel';
