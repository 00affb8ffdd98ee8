import * as vscode from 'vscode';
import { agentSpentTodayKey } from '../contracts/persistedState/video';
import { costOf, dayOf, decide, parseAllowance } from '../shared/agentAllowance';
import type { MediaQuote } from './mediaSpend';
import { persistedState } from './persistedState';
import type { Services } from './services';
import { userValue } from './userSettings';

/** Go without asking, or ask with the line that says why the allowance does not cover it. */
export type AgentAllowanceCheck = { ask: false } | { ask: true; why: string };

/**
 * Whether a billed action another agent asked for (a video, a storyboard's clips, images) fits in
 * what agents may still spend today without our question (`gatewayStudio.spend.agentAllowance`,
 * read from the user's own settings only). One daily sum for every kind of media: a loop that
 * alternates images and clips is bounded the same way. When it fits, it is counted now: an action
 * that then fails still used the allowance (never more).
 */
export async function checkAgentAllowance(
  s: Services,
  action: string,
  quotes: readonly MediaQuote[],
): Promise<AgentAllowanceCheck> {
  const allowance = parseAllowance(userValue('spend.agentAllowance'));
  const store = persistedState(s.context);
  const d = decide({
    allowance,
    stored: store.get(agentSpentTodayKey),
    today: dayOf(new Date()),
    cost: costOf(quotes.map((q) => (q.known ? { quota: q.quota, perUnit: q.perUnit, perUsd: q.perUsd } : undefined))),
  });
  if (!d.ask) {
    await store.set(agentSpentTodayKey, d.next);
    s.log.info(
      `agent spend: ${action} within gatewayStudio.spend.agentAllowance (${Number(d.spent.toFixed(6))} of ${allowance} today, in its gateway's unit)`,
    );
    return { ask: false };
  }
  const why =
    d.why === 'over'
      ? vscode.l10n.t(
          'It is beyond what agents may spend today without asking (gatewayStudio.spend.agentAllowance: {0}).',
          allowance,
        )
      : d.why === 'unknown-price'
        ? vscode.l10n.t('With the price unknown, gatewayStudio.spend.agentAllowance cannot cover it.')
        : vscode.l10n.t(
            'gatewayStudio.spend.agentAllowance in your user settings lets agents spend up to an amount a day without this question.',
          );
  return { ask: true, why };
}
