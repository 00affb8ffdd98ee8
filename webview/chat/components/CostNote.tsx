/**
 * The cost under an answer and the conversation's cost in the header; an estimate says why. A
 * chunk loaded on first use (lazy.ts, with the money formatting): most gateways price nothing.
 */
import type { JSX } from 'preact';
import type { AnswerCost } from '../../../src/shared/protocol';
import { answerCostView, totalCostView, type CostView } from '../cost';
import { agentName } from '../models/agentActions';
import { useChat } from '../useChat';

export function CostNote({ view, cls }: { view: CostView; cls: string }): JSX.Element {
  return (
    <span class={cls} title={view.why || undefined}>
      {view.text}
      {view.why && <span class="sr-only"> ({view.why})</span>}
    </span>
  );
}

export function ConversationCost(): JSX.Element | null {
  const { t, conversation, agents } = useChat();
  const view = totalCostView(t, conversation.answerCosts.value, {
    agents: conversation.costAgents.value,
    nameOf: (id) => agentName(agents, id),
  });
  return view ? <CostNote view={view} cls="cost-total" /> : null;
}

export function AnswerCostNote({ cost }: { cost: AnswerCost }): JSX.Element {
  const { t } = useChat();
  return <CostNote view={answerCostView(t, cost)} cls="cost" />;
}
