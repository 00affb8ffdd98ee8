/**
 * The cost line under an answer and the conversation's total in the header, from the costs the
 * host stored on the answers (whole quota units: added here as integers, formatted like the
 * balance item formats money). An estimate wears "≈" and says why, on screen for a screen reader
 * and in the tooltip for the mouse.
 */
import { formatMoney, sameUnit, type MoneyUnit } from '../../src/shared/money';
import type { AnswerCost } from '../../src/shared/protocol';
import type { Translate } from './models/strings';

export interface CostView {
  /** What is shown (`Cost: ≈$0.0012`). */
  text: string;
  /** Why it is an estimate, empty when it is not one (tooltip and screen-reader text). */
  why: string;
  estimate: boolean;
}

export function money(t: Translate, quota: number, unit: MoneyUnit): string {
  return formatMoney(quota, unit, { precise: true, tokens: (figure) => t('{0} tokens', figure) });
}

function reasonText(t: Translate, reason: AnswerCost['reason']): string {
  return reason === 'no-usage'
    ? t('An estimate: the gateway reported no token usage for this answer, so its tokens were counted here.')
    : t(
        'Unknown: no price is known for this model (the gateway publishes none; gatewayStudio.spend.prices can set one).',
      );
}

export function answerCostView(t: Translate, c: AnswerCost): CostView {
  if (c.quota === undefined)
    return { text: t('Cost: unknown'), why: reasonText(t, c.reason ?? 'no-price'), estimate: true };
  const figure = money(t, c.quota, c.unit);
  if (!c.estimate) return { text: t('Cost: {0}', figure), why: '', estimate: false };
  return { text: t('Cost: {0}', `≈${figure}`), why: reasonText(t, c.reason), estimate: true };
}

/**
 * The total of a conversation's answers: the costs in the unit of its latest priced answer,
 * added exactly. It is an estimate when any answer's is, or when an answer had no figure or was
 * priced in another unit (another gateway) and so is not in the sum. Undefined with no costs.
 */
export function totalCostView(t: Translate, costs: readonly AnswerCost[]): CostView | undefined {
  const last = costs.at(-1);
  if (!last) return undefined;
  let quota = 0;
  let estimated = false;
  let missing = 0;
  for (const c of costs) {
    if (c.quota === undefined || !sameUnit(c.unit, last.unit)) missing += 1;
    else {
      quota += c.quota;
      if (c.estimate) estimated = true;
    }
  }
  const figure = money(t, quota, last.unit);
  const why = [
    ...(estimated ? [t('Some answers reported no token usage: their cost is an estimate.')] : []),
    ...(missing ? [t('{0} answers have no figure (no price, or another gateway) and are not included.', missing)] : []),
  ].join(' ');
  const estimate = why !== '';
  return { text: t('Conversation cost: {0}', estimate ? `≈${figure}` : figure), why, estimate };
}
