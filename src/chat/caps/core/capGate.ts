/**
 * One turn's spend gate: before each request of the tool loop it adds up what the turn, the
 * conversation and (when the daily limit blocks) today have spent, prices the request's prompt at
 * the model's price, and when a cap would be passed it pauses on the user's choice: Continue (the
 * cap is raised to the figure the card named) or Stop (nothing more is sent). The arithmetic is
 * `capMath.ts`'s; the prices and the card come from the host side (`../vscode/chatCaps.ts`).
 */
import * as l10n from '@vscode/l10n';
import { sameUnit, type MoneyUnit } from '../../../shared/money';
import type { Conversation } from '../../../shared/protocol';
import {
  capBreach,
  displayToQuota,
  quotaToDisplay,
  readCap,
  stepCost,
  type CapBreach,
  type CapKind,
  type CapLimits,
} from './capMath';

/** The caps as configured: the user's settings and the conversation's own (display unit, unchecked). */
export interface CapSettings {
  turn: unknown;
  conversation: unknown;
  /** `gatewayStudio.spend.dailyLimitAction` is `block` and a daily limit is set. */
  dailyBlocks: boolean;
}

/** The prices a request is quoted at, by the account of the gateway that answers. */
export interface RequestQuote {
  unit: MoneyUnit;
  /** Quota units per prompt token and per answer token, and per request for a model billed so. */
  price: { input: number; output?: number; perCall?: number };
  /** Today's spend and the daily limit (quota units), when the daily limit blocks. */
  daily?: { spent: number; limit: number };
}

/** One request as the gate sees it: its model and token counts (the estimate, the answer's room). */
export interface StepRequest {
  model: string;
  promptTokens: number;
  maxAnswerTokens: number;
}

/** The card's figures: the breach, its unit and model, and the id the decision names. */
export interface CapPauseView extends CapBreach {
  id: string;
  unit: MoneyUnit;
  model: string;
}

export type CapDecision = 'continue' | 'stop';

export interface CapGateDeps {
  settings(): CapSettings;
  /** The model's prices on the gateway that answers; undefined when none is known. */
  quote(model: string): Promise<RequestQuote | undefined>;
  /** Resolves once the costs of the turn's answers so far are attached to them. */
  settled(): Promise<void>;
  /** Shows the card and waits for the user's choice (or the turn's Stop). */
  ask(pause: CapPauseView): Promise<CapDecision>;
  /** A line under the composer (a cap that is not a positive number, a price that is unknown). */
  notice(text: string): void;
  newId(): string;
  /** Spent outside the answers since the turn began (its subagents: ./sideSpend.ts), in `unit`. */
  sideSpent?(unit: MoneyUnit): number;
}

/** What the user's words name each setting by, for the problem lines. */
const SETTING: Record<'turn' | 'conversation', string> = {
  turn: 'gatewayStudio.spend.capPerTurn',
  conversation: 'gatewayStudio.spend.capPerConversation',
};

export class CapGate {
  /** The first message of this turn: the turn's answers are the ones after it. */
  private readonly from: number;
  /** Caps Continue raised for this turn only (quota units of `raisedUnit`). */
  private readonly raised: CapLimits = {};
  private raisedUnit: MoneyUnit | undefined;
  private readonly said = new Set<string>();

  constructor(
    private readonly conversation: Conversation,
    private readonly deps: CapGateDeps,
  ) {
    this.from = conversation.messages.length;
  }

  /** Whether the request may be sent; false after the user chose Stop on the card. */
  async beforeSend(step: StepRequest): Promise<boolean> {
    const s = this.deps.settings();
    const first = this.configured(s);
    if (first.turn === undefined && first.conversation === undefined && !s.dailyBlocks) return true;
    await this.deps.settled();
    const q = await this.deps.quote(step.model);
    if (!q || !(q.price.input >= 0)) {
      this.once(
        `price:${step.model}`,
        l10n.t(
          'Your spend caps are not checked for {0}: no price is known for it (gatewayStudio.spend.prices).',
          step.model,
        ),
      );
      return true;
    }
    const cost = stepCost({ prompt: step.promptTokens, maxAnswer: step.maxAnswerTokens }, q.price);
    for (;;) {
      const limits = this.limits(q, this.configured(s));
      const side = this.deps.sideSpent?.(q.unit) ?? 0;
      const spent = {
        turn: this.spent(q.unit, this.from) + side,
        conversation: this.spent(q.unit, 0) + side,
        daily: q.daily?.spent,
      };
      const breach = capBreach(limits, spent, cost);
      if (!breach) return true;
      const decision = await this.deps.ask({ ...breach, id: this.deps.newId(), unit: q.unit, model: step.model });
      if (decision === 'stop') return false;
      this.raise(breach.kind, breach.upTo, q.unit);
    }
  }

  /** The caps per turn and conversation in force (display unit): the conversation's own, else the settings'. */
  private configured(s: CapSettings): { turn?: number; conversation?: number } {
    const own = this.conversation.caps;
    return {
      turn: this.capSetting('turn', own?.turn ?? s.turn, own?.turn !== undefined),
      conversation: this.capSetting(
        'conversation',
        own?.conversation ?? s.conversation,
        own?.conversation !== undefined,
      ),
    };
  }

  /** The caps in quota units of `q`'s unit, with what Continue raised. */
  private limits(q: RequestQuote, c: { turn?: number; conversation?: number }): CapLimits {
    const raised = this.raisedUnit && sameUnit(this.raisedUnit, q.unit) ? this.raised : {};
    const max = (a: number | undefined, b: number | undefined) =>
      a === undefined ? b : b === undefined ? a : Math.max(a, b);
    const quota = (v: number | undefined) => (v === undefined ? undefined : displayToQuota(v, q.unit));
    return {
      turn: max(quota(c.turn), raised.turn),
      conversation: quota(c.conversation),
      daily: max(q.daily?.limit, raised.daily),
    };
  }

  /** Continue: the turn's and today's caps are raised for this turn; the conversation's is kept with it. */
  private raise(kind: CapKind, upTo: number, unit: MoneyUnit): void {
    if (kind === 'conversation') {
      this.conversation.caps = { ...this.conversation.caps, conversation: quotaToDisplay(upTo, unit) };
      return;
    }
    if (!this.raisedUnit || !sameUnit(this.raisedUnit, unit)) {
      this.raisedUnit = unit;
      delete this.raised.turn;
      delete this.raised.daily;
    }
    this.raised[kind] = upTo;
  }

  /** What the answers from message `from` on cost, in `unit` (answers priced in another unit are not added). */
  private spent(unit: MoneyUnit, from: number): number {
    let sum = 0;
    for (const m of this.conversation.messages.slice(from)) {
      if (m.role !== 'assistant' || m.cost?.quota === undefined) continue;
      if (sameUnit(m.cost.unit, unit)) sum += m.cost.quota;
      else this.once('unit', l10n.t("Answers priced in another gateway's unit are not counted against your caps."));
    }
    return sum;
  }

  /** A cap's value, or undefined with the problem said once when it is not a positive number. */
  private capSetting(kind: 'turn' | 'conversation', value: unknown, own: boolean): number | undefined {
    const r = readCap(value);
    if (r.ok) return r.cap;
    const where = !own
      ? SETTING[kind]
      : kind === 'turn'
        ? l10n.t("This conversation's cap per turn")
        : l10n.t("This conversation's cap for the whole conversation");
    this.once(
      `cap:${kind}`,
      r.problem === 'not-positive'
        ? l10n.t(
            '{0} is {1}: a spend cap must be more than 0. No cap applies; clear it to have none.',
            where,
            String(value),
          )
        : l10n.t('{0} is {1}: a spend cap must be a number. No cap applies.', where, JSON.stringify(value)),
    );
    return undefined;
  }

  private once(key: string, text: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.deps.notice(text);
  }
}
