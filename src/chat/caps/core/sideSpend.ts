/**
 * Spend made for a conversation outside its own answers (a subagent's requests, `chat/subagents`):
 * the costs are added here as they end, and a turn's gate counts those added since it began
 * against the turn's and the conversation's caps. Kept in memory: the answers' own costs are what
 * is stored with the conversation.
 */
import { sameUnit, type MoneyUnit } from '../../../shared/money';

export interface SideCost {
  quota: number;
  unit: MoneyUnit;
}

export class SideSpend {
  private readonly byConversation = new Map<string, SideCost[]>();

  add(conversationId: string, cost: SideCost): void {
    const list = this.byConversation.get(conversationId) ?? [];
    list.push({ quota: Math.max(0, Math.round(cost.quota)), unit: cost.unit });
    this.byConversation.set(conversationId, list);
  }

  /** What is added for `conversationId` from now on, in `unit` (costs in another unit are not added). */
  from(conversationId: string): (unit: MoneyUnit) => number {
    const start = this.byConversation.get(conversationId)?.length ?? 0;
    return (unit) =>
      (this.byConversation.get(conversationId) ?? [])
        .slice(start)
        .reduce((sum, c) => sum + (sameUnit(c.unit, unit) ? c.quota : 0), 0);
  }

  /** Forgets a conversation (a new chat starts nothing from it). */
  forget(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }
}
