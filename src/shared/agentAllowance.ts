/**
 * Whether a billed action another agent asked for (the `vscode.lm` video, storyboard and image
 * tools) may go without our own question. VS Code's confirmation of a tool is skipped by a user's global
 * auto-approve, so the extension asks itself, naming the price, unless the user gave agents an
 * allowance: `gatewayStudio.spend.agentAllowance`, an amount a day in the gateway's unit (the one
 * `confirmAbove` uses). Per day rather than per action: the risk of an agent left to itself (or
 * steered by text it read) is repetition, and only a daily sum bounds a loop of cheap calls. An
 * action whose price is unknown always asks: it cannot be counted against an amount.
 *
 * The sum is kept in US dollars (quota over the relay's quota per dollar), so what agents spent
 * through a relay billing in yuan and one billing in dollars adds up as money; each action is
 * checked against the allowance in its own gateway's unit, converted at that gateway's rate.
 */

/** What agents spent today without being asked, in US dollars, kept on this machine. */
export interface AgentSpend {
  day: string;
  usd: number;
}

/** The setting's value as an amount; 0 (ask every time) when unset or not a positive number. */
export function parseAllowance(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** The local calendar day, `2026-11-28`: the allowance starts again at local midnight. */
export function dayOf(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * One clip's (or image request's) price as the decision needs it, or unknown: quota units, and
 * its gateway's quota per display unit and per US dollar.
 */
export type PricedClip = { quota: number; perUnit?: number; perUsd?: number } | undefined;

/** An action's cost in US dollars, and its gateway's display units per dollar. */
export interface ActionCost {
  usd: number;
  rate: number;
}

const positive = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n > 0;

/** The action's cost, or undefined when any clip's price (or unit) is unknown or its clips are billed in different units. */
export function costOf(clips: readonly PricedClip[]): ActionCost | undefined {
  let usd = 0;
  let rate: number | undefined;
  for (const c of clips) {
    if (!c || !positive(c.perUnit) || !positive(c.perUsd) || !Number.isFinite(c.quota) || c.quota < 0) return undefined;
    const r = c.perUsd / c.perUnit;
    if (rate !== undefined && Math.abs(r - rate) > 1e-9 * rate) return undefined;
    rate = r;
    usd += c.quota / c.perUsd;
  }
  return rate === undefined ? undefined : { usd, rate };
}

export type AllowanceDecision =
  | { ask: false; next: AgentSpend; spent: number }
  | { ask: true; why: 'no-allowance' | 'unknown-price' | 'over'; spent: number };

/** Today's sum from what was kept (anything: it is checked); another day's counts as nothing. */
function todays(stored: unknown, today: string): number {
  const s = stored as Partial<AgentSpend> | undefined;
  return s && s.day === today && typeof s.usd === 'number' && Number.isFinite(s.usd) && s.usd > 0 ? s.usd : 0;
}

/**
 * Asks, or goes and says what today's sum becomes. `spent` is today's sum in the action's display
 * unit (before the action when asking, after it when going; in dollars when the price is unknown).
 */
export function decide(o: {
  allowance: number;
  stored: unknown;
  today: string;
  cost: ActionCost | undefined;
}): AllowanceDecision {
  const usd = todays(o.stored, o.today);
  const rate = o.cost?.rate ?? 1;
  if (o.allowance <= 0) return { ask: true, why: 'no-allowance', spent: usd * rate };
  if (o.cost === undefined) return { ask: true, why: 'unknown-price', spent: usd };
  // A small tolerance: sums of prices carry binary fractions.
  if ((usd + o.cost.usd) * rate > o.allowance + 1e-9) return { ask: true, why: 'over', spent: usd * rate };
  const next = { day: o.today, usd: usd + o.cost.usd };
  return { ask: false, next, spent: next.usd * rate };
}
