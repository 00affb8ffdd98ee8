/**
 * The `run_subagent` call's card while its runs go on: one line per run (the subagent, its
 * model, requests, tool rounds, its last tool, its cost so far) in the card's result, which the
 * page shows collapsed; the card's existing protocol (`tools/call`), so the page needs no new
 * code. A subagent's call that asks the user is shown on this card (its Allow / Deny answer
 * it), one at a time, since the card has one set of buttons.
 */
import * as l10n from '@vscode/l10n';
import type { ToolDecision } from '../../../shared/protocol';
import type { ApprovalRequest } from '../../tools/core/approval';
import type { ToolCallContext } from '../../tools/core/runner';
import type { ToolCardUpdate } from '../../tools/core/toolCard';
import type { SubagentToolDeps } from './deps';
import { RUN_SUBAGENT } from './definitions';
import type { SubagentProgress } from './subagentRun';

export interface RunLine {
  agent: string;
  model?: string;
  state: 'waiting' | 'running' | 'done' | 'failed';
  progress?: SubagentProgress;
}

export class RunCard {
  readonly lines: RunLine[];
  private asking: Promise<unknown> = Promise.resolve();
  /** The question on the card now: progress posted meanwhile keeps it (and its buttons) shown. */
  private question: Partial<ToolCardUpdate> | undefined;

  constructor(
    private readonly deps: Pick<SubagentToolDeps, 'post' | 'approve' | 'money'>,
    private readonly ctx: ToolCallContext,
    private readonly argumentsJson: string,
    agents: readonly string[],
  ) {
    this.lines = agents.map((agent) => ({ agent, state: 'waiting' }));
  }

  set(k: number, line: Partial<RunLine>): void {
    const old = this.lines[k];
    if (!old) return;
    this.lines[k] = { ...old, ...line };
    this.post(this.question ? 'awaiting-approval' : 'running', this.question);
  }

  /** The card's text: one line per run. */
  text(): string {
    return this.lines.map((l) => this.lineText(l)).join('\n');
  }

  private lineText(l: RunLine): string {
    const p = l.progress;
    const parts = [
      `${l.agent}${l.model ? ` (${l.model})` : ''}`,
      STATE_TEXT[l.state](),
      ...(p ? [l10n.t('{0} requests, {1} tool rounds', p.requests, p.rounds)] : []),
      ...(p?.cost ? [l10n.t('cost {0}', `${p.cost.estimate ? '~' : ''}${this.deps.money(p.cost)}`)] : []),
      ...(p?.lastTool && l.state === 'running' ? [p.lastTool] : []),
    ];
    return parts.join(' · ');
  }

  private post(state: ToolCardUpdate['state'], over: Partial<ToolCardUpdate> = {}): void {
    this.deps.post({
      conversationId: this.ctx.conversationId,
      callId: this.ctx.callId,
      name: RUN_SUBAGENT,
      argumentsJson: this.argumentsJson,
      state,
      readOnly: true,
      resultPreview: this.text(),
      ...over,
    });
  }

  /**
   * The approver of one run's tool calls: shown on this card (the subagent's name and the call),
   * answered by its buttons or VS Code's fallback, one question at a time.
   */
  approver(agent: string): (req: ApprovalRequest) => Promise<ToolDecision> {
    return (req) => {
      const asked = this.asking.then(async () => {
        if (req.signal.aborted) return 'deny' as const;
        this.question = {
          name: `${agent} › ${req.name}`,
          argumentsJson: req.argumentsJson,
          readOnly: req.readOnly,
          ...(req.warning ? { warning: req.warning } : {}),
          ...(req.askEveryTime ? { askEveryTime: true } : {}),
          ...(req.preview ? { preview: req.preview } : {}),
        };
        this.post('awaiting-approval', this.question);
        try {
          return await this.deps.approve({ ...req, callId: this.ctx.callId, conversationId: this.ctx.conversationId });
        } finally {
          this.question = undefined;
          this.post('running');
        }
      });
      this.asking = asked.catch(() => undefined);
      return asked;
    };
  }
}

const STATE_TEXT: Record<RunLine['state'], () => string> = {
  waiting: () => l10n.t('waiting'),
  running: () => l10n.t('running'),
  done: () => l10n.t('done'),
  failed: () => l10n.t('did not finish'),
};
