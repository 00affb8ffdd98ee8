/**
 * The cost line under an answer and the conversation's total in the header, from the costs the
 * host stored on the answers (whole quota units: added here as integers, formatted like the
 * balance item formats money). An estimate wears "≈" and says why, on screen for a screen reader
 * and in the tooltip for the mouse.
 */
import { formatMoney, type MoneyUnit } from '../../src/shared/money';
import type { AnswerCost } from '../../src/shared/protocol';
import type { Translate } from './models/strings';

export interface CostView {
  /** What is shown (`Cost: ≈$0.0012`). */
  text: string;
  /** Why it is an estimate, empty when it is not one (tooltip and screen-reader text). */
  why: string;
}

const money = (t: Translate, quota: number, unit: MoneyUnit, estimate: boolean): string =>
  (estimate ? '≈' : '') + formatMoney(quota, unit, { precise: true, tokens: (f) => t('{0} tokens', f) });

/** Where a computed figure's price came from (issue 43: the line explains itself on hover). */
function priceSource(t: Translate, c: AnswerCost): string {
  return c.priceFrom === 'settings'
    ? t("The model's price is from your setting gatewayStudio.spend.prices.")
    : t("The model's price is from the gateway's price list.");
}

export function answerCostView(t: Translate, c: AnswerCost): CostView {
  // Which figure it is (issue 39): the gateway's own report wins over usage × price. Each says
  // what it counts and where the price came from (issue 43).
  const why = c.reportedBy
    ? `${t('Reported by the gateway ({0}).', c.reportedBy)} ${t('What the gateway says it charged for this answer.')}`
    : !c.estimate
      ? `${t('Computed here: usage × price.')} ${t('The prompt and output tokens the gateway reported for this answer, times the model price, in the gateway unit.')} ${priceSource(t, c)}`
      : c.reason === 'no-usage'
        ? `${t('Estimate: the gateway reported no token usage; tokens were counted here.')} ${priceSource(t, c)}`
        : t('No price is known for this model (gatewayStudio.spend.prices).');
  const text = c.quota === undefined ? t('Cost: unknown') : t('Cost: {0}', money(t, c.quota, c.unit, c.estimate));
  // The prompt's cached share and what it saved at the cached price (issue 39).
  const k = c.cached;
  const cached = !k
    ? ''
    : k.saved
      ? t('{0}% cached, saved {1}', k.percent, money(t, k.saved, c.unit, false))
      : t('{0}% cached', k.percent);
  return { text: cached ? `${text} · ${cached}` : text, why };
}

/**
 * The total of a conversation's answers: the costs in the unit of its latest priced answer,
 * added exactly. It is an estimate when any answer's is, or when an answer had no figure or was
 * priced in another unit (another gateway) and so is not in the sum. Undefined with no costs.
 */
export function totalCostView(
  t: Translate,
  costs: readonly AnswerCost[],
  shares?: { agents: readonly string[]; nameOf: (id: string) => string },
): CostView | undefined {
  const last = costs.at(-1);
  if (!last) return undefined;
  // Units built by the same code (the account's) compare equal as JSON, in the same key order.
  const key = JSON.stringify(last.unit);
  let quota = 0;
  let partial = false;
  for (const c of costs) {
    if (c.quota === undefined || JSON.stringify(c.unit) !== key) partial = true;
    else {
      quota += c.quota;
      partial ||= c.estimate;
    }
  }
  const why = partial ? t('Includes estimates, or answers without a figure (not added).') : '';
  const text = t('Conversation cost: {0}', money(t, quota, last.unit, why !== ''));
  const split = shares ? agentShares(t, costs, shares.agents, shares.nameOf) : '';
  return { text: split ? `${text} (${split})` : text, why };
}

/**
 * Each agent's share of the total (`Plan ≈$0.01 · Agent $0.04`), in the total's unit; empty when
 * one agent gave every answer. `agents[i]` is the agent of `costs[i]`.
 */
export function agentShares(
  t: Translate,
  costs: readonly AnswerCost[],
  agents: readonly string[],
  nameOf: (id: string) => string,
): string {
  const last = costs.at(-1);
  if (!last) return '';
  const key = JSON.stringify(last.unit);
  const by = new Map<string, { quota: number; estimate: boolean }>();
  costs.forEach((c, i) => {
    const agent = agents[i] ?? 'agent';
    const s = by.get(agent) ?? { quota: 0, estimate: false };
    if (c.quota === undefined || JSON.stringify(c.unit) !== key) s.estimate = true;
    else {
      s.quota += c.quota;
      s.estimate ||= c.estimate;
    }
    by.set(agent, s);
  });
  if (by.size < 2) return '';
  return [...by].map(([agent, s]) => `${nameOf(agent)} ${money(t, s.quota, last.unit, s.estimate)}`).join(' · ');
}
