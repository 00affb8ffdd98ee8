/** The cost under an answer and the conversation's cost in the header; an estimate says why. */
import type { JSX } from 'preact';
import { totalCostView, type CostView } from '../cost';
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
  const { t, conversation } = useChat();
  const view = totalCostView(t, conversation.answerCosts.value);
  return view ? <CostNote view={view} cls="cost-total" /> : null;
}
