import type * as vscode from 'vscode';
import type { AnswerCost } from '../shared/protocol/cost';
import type { Services } from './services';

/** What a feature asks the price of: one ended answer, by figures and names only (never its text). */
export interface AnswerCostQuery {
  /** The `/v1` base URL of the gateway that answered: each gateway's account prices its own answers. */
  gateway: string;
  model: string;
  /** The usage the gateway reported (cached prompt tokens in `prompt_tokens_details`). */
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  /** The tokens counted here, for an answer without usage: the cost is then marked as an estimate. */
  estimated?: { prompt_tokens: number; completion_tokens: number };
}

export type AnswerPricer = (q: AnswerCostQuery) => Promise<AnswerCost | undefined>;

// By the extension's context, as usageEvents.ts: the account registers, the chat asks; neither
// imports the other. The map is kept on a global symbol so that every copy of this module in
// the extension host (the extension's bundle, a test bundle that builds its own chat controller
// over the extension's Services) sees the one the account registered in.
const GLOBAL_KEY = Symbol.for('gatewayStudio.answerPricers.v1');
const pricers: WeakMap<vscode.ExtensionContext, AnswerPricer> = ((
  globalThis as unknown as Record<symbol, WeakMap<vscode.ExtensionContext, AnswerPricer> | undefined>
)[GLOBAL_KEY] ??= new WeakMap());

/** The account feature offers its prices (the last one registered wins). */
export function setAnswerPricer(s: Services, fn: AnswerPricer): vscode.Disposable {
  pricers.set(s.context, fn);
  return {
    dispose: () => {
      if (pricers.get(s.context) === fn) pricers.delete(s.context);
    },
  };
}

/**
 * The cost of an ended answer, or undefined when nobody prices answers (the account feature is
 * off or not loaded) or pricing failed (logged). Call it after the answer, never before a send:
 * it may read the gateway's prices over the network.
 */
export async function priceAnswer(s: Services, q: AnswerCostQuery): Promise<AnswerCost | undefined> {
  const fn = pricers.get(s.context);
  if (!fn) return undefined;
  try {
    return await fn(q);
  } catch (err) {
    s.log.warn(`The answer's cost is unknown: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
