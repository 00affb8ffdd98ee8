/** The local gateway's prices, read once the way the account feature reads them (as the subagents' cost bench does). */
import { GatewayClient } from '../../src/api/client';
import { transportOver } from '../../src/api/account/transport';
import { AccountState } from '../../src/account/balance/core/accountState';
import { PriceBook, parsePricing } from '../../src/account/pricing/core/pricing';
import { priceOfAnswer } from '../../src/account/spend/core/answerPrice';
import type { CostQuery } from '../../src/chat/session/core/answerCost';
import type { MoneyUnit } from '../../src/shared/money';
import type { AnswerCost } from '../../src/shared/protocol';

export interface Prices {
  unit: MoneyUnit;
  price(q: CostQuery): AnswerCost;
}

export async function gatewayPrices(gw: { url: string; keys: { valid: string } }): Promise<Prices> {
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const transport = transportOver(client.http);
  const state = new AccountState({ gateway: client.http.baseUrl, transport: () => Promise.resolve(transport) });
  await state.refreshNow();
  const unit = state.snapshot().unit;
  state.dispose();
  const f = await transport.get('/api/pricing');
  const parsed = f.kind === 'json' ? parsePricing(f.body, { group: 'default', unit }) : undefined;
  if (!parsed?.ok) throw new Error('the local gateway gave no prices');
  const book = new PriceBook(parsed.value.prices);
  return { unit, price: (q) => priceOfAnswer(q, book.lookup(q.model), unit) };
}
