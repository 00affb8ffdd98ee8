/** What the subagent tool needs from the chat around it (the host wires it: ../vscode/subagents.ts). */
import type { ChatBackend } from '../../../api/chat/wire';
import type { ModelRecord } from '../../../api/models/models';
import type { AnswerCost, ToolDecision, ToolMode } from '../../../shared/protocol';
import type { AgentDefinition } from '../../agents/core/agent';
import type { CostQuery } from '../../session/core/answerCost';
import type { ApprovalRequest } from '../../tools/core/approval';
import type { ToolCallContext } from '../../tools/core/runner';
import type { ToolExecutor } from '../../tools/core/seam';
import type { ToolCardUpdate } from '../../tools/core/toolCard';
import type { RunCost } from './subagentRun';

/** A profile's client as a subagent uses it: its chat calls and its model list. */
export interface SubagentBackend extends ChatBackend {
  listModels(signal?: AbortSignal): Promise<ModelRecord[]>;
}

/** The turn that made the call: its agent, and the conversation's profile and model. */
export interface ParentTurn {
  agent?: AgentDefinition;
  profile: string;
  model: string;
}

/** The user's settings, read on every call. */
export interface SubagentSettings {
  /** `gatewayStudio.subagents.maxParallel`: runs at once, over every call. */
  maxParallel: number;
  /** `gatewayStudio.subagents.maxRounds`: each run's own limit of tool rounds. */
  maxRounds: number;
  /** `gatewayStudio.utilityModel`: a subagent's model when neither the call nor its file names one. */
  utilityModel: string;
}

export interface SubagentToolDeps {
  parent(ctx: ToolCallContext): Promise<ParentTurn>;
  /** A custom agent by name (undefined: none, or not usable here). */
  agent(name: string): Promise<AgentDefinition | undefined>;
  settings(): SubagentSettings;
  /** The user's profiles (id and name): a call may name any of them. */
  profiles(): readonly { id: string; name: string }[];
  /** The client of a profile (its own key); rejects when it cannot be built. */
  backend(profile: string): Promise<SubagentBackend>;
  /**
   * A tool runner over the same enabled tools, trust and hooks as the chat's, whose approvals go
   * to `approve` (the run's card relays them) and whose cards to `onUpdate`.
   */
  runner(o: {
    approve: (r: ApprovalRequest) => Promise<ToolDecision>;
    onUpdate: (u: ToolCardUpdate) => void;
  }): ToolExecutor;
  /** The chat's approver (the card's buttons, or VS Code's quick pick when the chat is hidden). */
  approve(req: ApprovalRequest): Promise<ToolDecision>;
  /** Shows or updates a card in the chat. */
  post(u: ToolCardUpdate): void;
  /** Prices one ended answer of `backend` (absent: runs are not priced). */
  price?(backend: SubagentBackend, q: CostQuery): Promise<AnswerCost | undefined>;
  /** A run's own cap in quota units of `unit` (the smaller of the run's and the turn's caps); undefined: none. */
  cap?(conversationId: string, unit: RunCost['unit']): number | undefined;
  /** A run ended with this cost: it counts in the turn's cap (`chat/caps` SideSpend). */
  spent?(conversationId: string, cost: RunCost): void;
  /** A cost as the card shows it (`$0.0123`). */
  money(cost: RunCost): string;
  /** The user's tool mode for a model (off, read-only, all); absent: all. */
  modeFor?(model: string): ToolMode;
}
