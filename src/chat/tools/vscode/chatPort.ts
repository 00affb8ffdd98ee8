import type * as vscode from 'vscode';
import type { MediaJobSource } from '../../../contracts/featureTools';
import type { ToolChoiceSetting, ToolDecision, ToolInfo } from '../../../shared/protocol';
import type { ChangeRecorder } from '../../conversation/core/contracts';
import type { SkillLibrary } from '../core/builtin/loadSkill';
import type { AskAnswer } from '../core/builtin/askUser';
import type { ConversationToolCall, ToolExecutor } from '../core/seam';

/** A tool-menu change made by the user in the chat. */
export type ToolSettingChange =
  | { kind: 'enabled'; name: string; enabled: boolean }
  | { kind: 'trusted'; name: string; trusted: boolean }
  | { kind: 'choice'; choice: ToolChoiceSetting };

/**
 * What the tools need from the chat: the chat's controller implements it and the composition
 * point (`chat/vscode/register.ts`) hands it to `registerTools` when the chat first loads. Declared
 * here, beside its user, so the tools never import the composition point.
 */
export interface ChatPanelApi {
  /**
   * Shows or updates a tool card in every open chat (also replayed to a reloaded webview), if its
   * conversation is the one shown; a card of another conversation is dropped.
   */
  postToolCall(update: ConversationToolCall): void;
  /** Allow / Deny / Always allow clicked on a card. */
  onToolDecision(listener: (e: { callId: string; decision: ToolDecision }) => void): vscode.Disposable;
  /** ask_user answered on a card; `take` returns why an answer cannot be taken. Optional for other implementations. */
  onToolAnswer?(take: (callId: string, answer: AskAnswer) => string | undefined): vscode.Disposable;
  /** The executor used for every later turn: its definitions are sent, its calls run. */
  setToolExecutor(executor: ToolExecutor | undefined): void;
  /** Feeds the tools menu (enabled / trusted toggles, tool_choice). */
  postTools(tools: ToolInfo[], choice: ToolChoiceSetting): void;
  /** A toggle or the tool_choice changed in the tools menu. */
  onToolSettings(listener: (e: ToolSettingChange) => void): vscode.Disposable;
  /**
   * The card of `callId` (in `conversationId`) shows the task `key` of another feature (a video) from now on: its
   * progress, then the saved file with a preview. Optional for other implementations.
   */
  followTask?(conversationId: string, callId: string, key: string, source: MediaJobSource): void;
  /** A feature's tasks can be described: stored cards of that kind follow their tasks again. */
  offerTaskSource?(source: MediaJobSource): void;
  /** Records each file's prior content before a tool changes it (checkpoints). Optional for other implementations. */
  readonly checkpointRecorder?: ChangeRecorder;
  /** The conversation currently shown (for tools that need its id). */
  readonly conversationId: string;
  /**
   * Whether a chat (view or panel) is on screen now, so a card there can be seen. Optional for
   * other implementations: without it approvals look at the editor tabs, and ask outside the
   * chat when unsure.
   */
  isVisible?(): boolean;
  /** `vscode.workspace.isTrusted`, or the chat's stand-in for it (tests of Restricted Mode). */
  isWorkspaceTrusted?(): boolean;
  /** The skills `load_skill` reads (offered only while the model may load one). */
  readonly skills?: SkillLibrary;
}
