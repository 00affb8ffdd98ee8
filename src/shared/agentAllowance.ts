/**
 * Whether a billed action another agent asked for (the `vscode.lm` video, storyboard and image
 * tools) may go without our own question. VS Code's confirmation of a tool is skipped by a user's global
 * auto-approve, so the extension asks itself, naming the price, unless the user gave agents an
 * allowance: `gatewayStudio.spend.agentAllowance`, an amount a day in the gateway's unit (the one
 * `confirmAbove` uses). Per day rather than per action: the risk of an agent left to itself (or
 * steered by text it read) is repetition, and only a daily sum bounds a loop of cheap calls. An
 * action whose price is unknown always asks: it cannot be counted against an amount.
 */

/** What agents spent today without being asked (display units), kept on this machine. */
export interface AgentSpend {
  day: string;
  spent: number;
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

/** One clip's (or image request's) price as the decision needs it: quota units and quota per display unit, or unknown. */
export type PricedClip = { quota: number; perUnit?: number } | undefined;

/** The action's cost in display units, or undefined when any clip's price (or unit) is unknown. */
export function costOf(clips: readonly PricedClip[]): number | undefined {
  let sum = 0;
  for (const c of clips) {
    if (!c || !(c.perUnit !== undefined && c.perUnit > 0) || !Number.isFinite(c.quota) || c.quota < 0) return undefined;
    sum += c.quota / c.perUnit;
  }
  return sum;
}

export type AllowanceDecision =
  { ask: false; next: AgentSpend } | { ask: true; why: 'no-allowance' | 'unknown-price' | 'over'; spent: number };

/**
 * Asks, or goes and says what today's spend becomes. `stored` is what was kept (anything: it is
 * checked); a stored day other than `today` counts as nothing spent.
 */
export function decide(o: {
  allowance: number;
  stored: unknown;
  today: string;
  cost: number | undefined;
}): AllowanceDecision {
  const s = o.stored as Partial<AgentSpend> | undefined;
  const spent =
    s && s.day === o.today && typeof s.spent === 'number' && Number.isFinite(s.spent) && s.spent > 0 ? s.spent : 0;
  if (o.allowance <= 0) return { ask: true, why: 'no-allowance', spent };
  if (o.cost === undefined) return { ask: true, why: 'unknown-price', spent };
  // A small tolerance: sums of prices in display units carry binary fractions.
  if (spent + o.cost > o.allowance + 1e-9) return { ask: true, why: 'over', spent };
  return { ask: false, next: { day: o.today, spent: spent + o.cost } };
}
