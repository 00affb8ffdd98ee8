import type * as vscode from 'vscode';
import type { MoneyUnit } from '../shared/money';
import type { AnswerCost } from '../shared/protocol/cost';
import type { Logger } from './log';

/** What a feature asks the price of: one ended answer, by figures and names only (never its text). */
export interface AnswerCostQuery {
  /** The `/v1` base URL of the gateway that answered: each gateway's account prices its own answers. */
  gateway: string;
  /** The profile that answered, when the chat knows it (after a failover, not the active one). */
  profile?: string;
  model: string;
  /** The usage the gateway reported (cached prompt tokens in `prompt_tokens_details`). */
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  /** The tokens counted here, for an answer without usage: the cost is then marked as an estimate. */
  estimated?: { prompt_tokens: number; completion_tokens: number };
  /** The gateway's own figure for the answer (`reported_cost` on its usage), unchecked: it wins when valid. */
  reported?: unknown;
}

export type AnswerPricer = (q: AnswerCostQuery) => Promise<AnswerCost | undefined>;

/** A model's prices on a gateway, for the spend caps before a request (quota units of `unit`). */
export interface RequestPrice {
  unit: MoneyUnit;
  /** Per prompt token and per answer token; `perCall` for a model billed per request. */
  input: number;
  output?: number;
  perCall?: number;
  /** Today's spend on the gateway and the daily limit, when the user set the limit to block. */
  daily?: { spent: number; limit: number };
}

/**
 * `gateway`: the `/v1` base URL that will answer, `profile` the profile it is asked through (after a
 * failover, not the active one); neither: the active profile's (the composer's line).
 */
export type RequestQuoter = (q: {
  gateway?: string;
  profile?: string;
  model: string;
}) => Promise<RequestPrice | undefined>;

/**
 * Where the chat asks what an answer cost and the account feature answers, neither importing the
 * other: one per activation, handed to every feature in `Services.answerCosts`.
 */
export class AnswerCosts {
  private pricer: AnswerPricer | undefined;
  /**
   * The prices of a model before a request is sent (the chat's spend caps), set by the account
   * while it is loaded (a plain field: this object is built at activation, its methods count).
   */
  quoter: RequestQuoter | undefined;

  constructor(private readonly log: Pick<Logger, 'warn'>) {}

  /** The account feature offers its prices (the last one offered wins) until the result is disposed. */
  offer(fn: AnswerPricer): vscode.Disposable {
    this.pricer = fn;
    return {
      dispose: () => {
        if (this.pricer === fn) this.pricer = undefined;
      },
    };
  }

  /**
   * The cost of an ended answer, or undefined when nobody prices answers (the account feature is
   * off or not loaded) or pricing failed (logged). Call it after the answer, never before a send:
   * it may read the gateway's prices over the network.
   */
  async price(q: AnswerCostQuery): Promise<AnswerCost | undefined> {
    const fn = this.pricer;
    if (!fn) return undefined;
    try {
      return await fn(q);
    } catch (err) {
      this.log.warn(`The answer's cost is unknown: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }
}
