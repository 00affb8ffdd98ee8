/** The cost lines, whose code (CostNote.tsx) is loaded when the first cost is to be shown. */
import type { JSX } from 'preact';
import type { AnswerCost } from '../../../src/shared/protocol';
import { costCode } from '../lazy';
import { useChat } from '../useChat';

export function AnswerCostLine({ cost }: { cost: AnswerCost }): JSX.Element | null {
  const code = costCode.value.value;
  if (!code) {
    void costCode.load();
    return null;
  }
  return <code.AnswerCostNote cost={cost} />;
}

export function ConversationCostLine(): JSX.Element | null {
  const { conversation } = useChat();
  const code = costCode.value.value;
  if (conversation.answerCosts.value.length === 0) return null;
  if (!code) {
    void costCode.load();
    return null;
  }
  return <code.ConversationCost />;
}
