/**
 * One subagent run: the task as the only user message of a fresh conversation, the agent's
 * instructions as its system prompt, its own model and tools, the chat's own tool loop
 * (`runTurn`) with its own round limit, and its own spend cap checked before every request (the
 * answers so far priced first). What comes back is the last answer's text, the summary the parent
 * reads; the transcript stays here.
 */
import * as l10n from '@vscode/l10n';
import type { ChatBackend } from '../../../api/chat/wire';
import { DEFAULT_CHAT_PARAMS } from '../../../shared/chatParams';
import { sameUnit, type MoneyUnit } from '../../../shared/money';
import { newId, type AnswerCost, type ChatMessage, type Conversation } from '../../../shared/protocol';
import type { AgentDefinition } from '../../agents/core/agent';
import { billable, costQuery, type CostQuery } from '../../session/core/answerCost';
import { runTurn } from '../../session/core/turnRunner';
import type { ToolExecutor } from '../../tools/core/seam';

/** What a run has cost so far: quota units of one gateway unit; `estimate` when any answer was unpriced. */
export interface RunCost {
  quota: number;
  unit: MoneyUnit;
  estimate: boolean;
}

/** What the card shows while the run goes on. */
export interface SubagentProgress {
  requests: number;
  rounds: number;
  /** The tool the subagent called last, with its arguments in short. */
  lastTool?: string;
  cost?: RunCost;
}

export interface SubagentRunInput {
  agent: AgentDefinition;
  task: string;
  model: string;
  backend: ChatBackend;
  /** The subagent's tools, already narrowed; undefined: it answers without tools. */
  executor: ToolExecutor | undefined;
  /** Tool-call rounds it may make (its own limit, not the parent's). */
  maxRounds: number;
  /** The parent's Stop. */
  signal: AbortSignal;
  /** The id its tool calls are made under (the parent's conversation: trust and approvals). */
  conversationId: string;
  /** Prices one ended answer (the account's prices); absent: the run is not priced. */
  price?: (q: CostQuery) => Promise<AnswerCost | undefined>;
  /** Its own cap in quota units of `unit`; undefined: none. */
  cap?: (unit: MoneyUnit) => number | undefined;
  onProgress?: (p: SubagentProgress) => void;
  now?: () => number;
}

export interface SubagentOutcome {
  status: 'done' | 'stopped' | 'error' | 'max-rounds' | 'cap';
  /** The last answer's text (what the parent reads), possibly empty. */
  summary: string;
  requests: number;
  rounds: number;
  cost?: RunCost;
  /** Why it did not finish, in words (an error's detail). */
  problem?: string;
}

/** Thrown by the guarded backend before a request that its cap does not allow. */
class CapReached extends Error {
  constructor() {
    super('the subagent reached its spend cap');
    this.name = 'CapReached';
  }
}

/** Adds each answer's price as it comes; the cap check waits for those asked for. */
class RunSpend {
  cost: RunCost | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly asked = new Set<string>();

  constructor(private readonly price: SubagentRunInput['price']) {}

  seen(conv: Conversation, m: ChatMessage, changed: () => void): void {
    if (!this.price || m.role !== 'assistant' || this.asked.has(m.id) || !billable(m)) return;
    this.asked.add(m.id);
    const p = this.price(costQuery(conv, m)).then(
      (c) => {
        if (c) this.add(c);
        changed();
      },
      () => undefined,
    );
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private add(c: AnswerCost): void {
    const estimate = c.estimate || c.quota === undefined;
    if (!this.cost) this.cost = { quota: c.quota ?? 0, unit: c.unit, estimate };
    else if (sameUnit(this.cost.unit, c.unit))
      this.cost = { ...this.cost, quota: this.cost.quota + (c.quota ?? 0), estimate: this.cost.estimate || estimate };
    else this.cost = { ...this.cost, estimate: true };
  }

  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

export async function runSubagent(i: SubagentRunInput): Promise<SubagentOutcome> {
  const now = i.now ?? Date.now;
  const conv: Conversation = {
    id: i.conversationId,
    title: '',
    createdAt: now(),
    updatedAt: now(),
    model: i.model,
    systemPrompt: i.agent.instructions,
    params: {},
    messages: [{ id: newId('u'), role: 'user', text: i.task, images: [], contexts: [], createdAt: now() }],
  };
  const spend = new RunSpend(i.price);
  const progress: SubagentProgress = { requests: 0, rounds: 0 };
  const report = () => i.onProgress?.({ ...progress, ...(spend.cost ? { cost: spend.cost } : {}) });
  let capped = false;
  const rounded = new Set<string>();
  const backend = guarded(i.backend, async () => {
    await spend.settled();
    const cap = spend.cost ? i.cap?.(spend.cost.unit) : undefined;
    if (cap !== undefined && spend.cost && spend.cost.quota >= cap) {
      capped = true;
      throw new CapReached();
    }
    progress.requests++;
    report();
  });
  const outcome = await runTurn({
    backend,
    conversation: conv,
    defaults: { model: i.model, systemPrompt: '', params: { ...DEFAULT_CHAT_PARAMS }, agent: i.agent.id },
    ...(i.executor ? { executor: i.executor } : {}),
    maxRounds: i.maxRounds,
    signal: i.signal,
    now,
    callbacks: {
      onMessage: (m) => {
        spend.seen(conv, m, report);
        if (m.role === 'assistant' && m.toolCalls?.length && !rounded.has(m.id)) {
          rounded.add(m.id);
          progress.lastTool = m.toolCalls
            .map((c) => `${c.function.name} ${shortArgs(c.function.arguments)}`)
            .join(', ');
          progress.rounds++;
          report();
        }
      },
      onDelta: () => undefined,
    },
  });
  await spend.settled();
  const status = capped ? 'cap' : outcome.status;
  return {
    status,
    summary: outcome.last?.content ?? '',
    requests: progress.requests,
    rounds: outcome.rounds,
    ...(spend.cost ? { cost: spend.cost } : {}),
    ...(outcome.error && !capped ? { problem: `${outcome.error.title}: ${outcome.error.detail}` } : {}),
  };
}

/** `inner` with `before` awaited ahead of every request (the cap check, the request count). */
function guarded(inner: ChatBackend, before: () => Promise<void>): ChatBackend {
  return {
    chat: async (req, signal) => {
      await before();
      return inner.chat(req, signal);
    },
    streamChat: async (req, o) => {
      await before();
      return inner.streamChat(req, o);
    },
  };
}

/** A call's arguments in one short line for the card. */
function shortArgs(json: string): string {
  const flat = json.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/**
 * The tool result the parent reads: the summary, and when the run did not finish, why (the round
 * limit, the cap, an error, Stop) in front of what it had found.
 */
export function resultText(name: string, o: SubagentOutcome, maxRounds: number): string {
  const why =
    o.status === 'max-rounds'
      ? l10n.t('The subagent {0} stopped at its limit of {1} tool rounds before it finished.', name, maxRounds)
      : o.status === 'cap'
        ? l10n.t(
            'The subagent {0} stopped at its spend cap (gatewayStudio.subagents.capPerRun) before it finished.',
            name,
          )
        : o.status === 'error'
          ? l10n.t('The subagent {0} failed: {1}', name, o.problem ?? '')
          : o.status === 'stopped'
            ? l10n.t('The subagent {0} was stopped.', name)
            : undefined;
  const summary = o.summary.trim() || l10n.t('(no summary)');
  if (!why) return summary;
  return `${why}\n${l10n.t('What it had found:')}\n${summary}`;
}
