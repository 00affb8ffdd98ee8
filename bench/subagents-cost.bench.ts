// Issue 42's cost bench: a scripted investigation of 10 files, done by the parent alone on
// gw-chat, against the same reading done by the Explore subagent on gw-mini (priced at a tenth of
// gw-chat on the local gateway) with the parent reading only Explore's summary. Both run the real
// path in plain node: the chat's tool loop (`runTurn`), the tool runner with the built-in tools
// over a temp workspace, `run_subagent` (src/chat/subagents/core) and the local gateway over HTTP;
// every answer is priced with the account's own code from the gateway's `/api/pricing`. Prints
// both side by side; exits 1 when the subagent's way costs more than 40% of the parent alone.
import { GatewayClient } from '../src/api/client';
import { transportOver } from '../src/api/account/transport';
import { AccountState } from '../src/account/balance/core/accountState';
import { PriceBook, parsePricing } from '../src/account/pricing/core/pricing';
import { priceOfAnswer } from '../src/account/spend/core/answerPrice';
import { costQuery } from '../src/chat/session/core/answerCost';
import { formatMoney, type MoneyUnit } from '../src/shared/money';
import type { AnswerCost, Conversation } from '../src/shared/protocol';
import { startGateway, type Gateway } from '../test/gateway/server';
import { tempWorkspace } from '../test/support/builtinTool';
import { script, subagentHarness } from '../test/support/subagentHarness';

const FILES = 10;
const LIMIT = 0.4;

/** A source file of about 4 KB: what an investigation reads. */
function sourceFile(k: number): string {
  const lines = Array.from(
    { length: 90 },
    (_, i) =>
      `export function step${k}_${i}(input: number): number { return input * ${i + 1} + ${k}; } // part ${k}.${i}`,
  );
  return `// module ${k}: the ${k}th stage of the pipeline\n${lines.join('\n')}\n`;
}

const READS = Array.from({ length: FILES }, (_, k) => ({
  calls: [{ name: 'read_file', arguments: { path: `src/m${k}.ts` } }],
}));
const FINDINGS =
  'Findings: the pipeline has 10 stages (src/m0.ts to src/m9.ts); each exports 90 step functions `stepK_i(input) = input * (i + 1) + K`. Nothing reads configuration or the network; no stage calls another. The entry points are the step0_* functions of src/m0.ts.';
const ANSWER = `The pipeline is 10 independent stages. ${FINDINGS}`;

interface Pricing {
  unit: MoneyUnit;
  price(model: string, q: Parameters<typeof priceOfAnswer>[0]): AnswerCost;
}

async function pricing(gw: Gateway): Promise<Pricing> {
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
  return { unit, price: (model, q) => priceOfAnswer(q, book.lookup(model), unit) };
}

/** What a conversation's answers cost, with their token counts. */
function tally(c: Conversation, p: Pricing): { quota: number; requests: number; prompt: number; completion: number } {
  let [quota, requests, prompt, completion] = [0, 0, 0, 0];
  for (const m of c.messages) {
    if (m.role !== 'assistant') continue;
    requests++;
    prompt += m.usage?.prompt_tokens ?? 0;
    completion += m.usage?.completion_tokens ?? 0;
    quota += p.price(m.requestedModel, costQuery(c, m)).quota ?? 0;
  }
  return { quota, requests, prompt, completion };
}

async function main(): Promise<void> {
  const gw = await startGateway({ models: { 'gw-mini': 'gw-chat' } });
  const files = Object.fromEntries(Array.from({ length: FILES }, (_, k) => [`src/m${k}.ts`, sourceFile(k)]));
  const ws = await tempWorkspace(files);
  const p = await pricing(gw);
  const sub = { quota: 0, requests: 0, prompt: 0, completion: 0 };
  const h = subagentHarness(() => gw, {
    root: ws.root,
    deps: {
      settings: () => ({ maxParallel: 3, maxRounds: 15, utilityModel: '' }),
      price: (_b, q) => {
        sub.requests++;
        sub.prompt += q.usage?.prompt_tokens ?? 0;
        sub.completion += q.usage?.completion_tokens ?? 0;
        return Promise.resolve(p.price(q.model, q));
      },
      spent: (_c, cost) => (sub.quota += cost.quota),
    },
  });
  const alone = await h.parentTurn(script([...READS, { text: ANSWER }]), { maxRounds: 15 });
  const task = `Read src/m0.ts to src/m9.ts and report what the pipeline does. ${script([...READS, { text: FINDINGS }])}`;
  const withExplore = await h.parentTurn(
    script([
      { calls: [{ name: 'run_subagent', arguments: { agent: 'Explore', model: 'gw-mini', task } }] },
      { text: ANSWER },
    ]),
  );
  await ws.dispose();
  await gw.close();
  if (alone.outcome.status !== 'done' || withExplore.outcome.status !== 'done')
    throw new Error(`a run did not finish: ${alone.outcome.status}, ${withExplore.outcome.status}`);
  report(p, tally(alone.conversation, p), tally(withExplore.conversation, p), sub);
}

function report(
  p: Pricing,
  alone: ReturnType<typeof tally>,
  parent: ReturnType<typeof tally>,
  sub: ReturnType<typeof tally>,
): void {
  const money = (q: number) => formatMoney(q, p.unit, { precise: true, tokens: (f) => `${f} tokens` });
  const row = (name: string, t: ReturnType<typeof tally>) =>
    `  ${name.padEnd(34)} ${String(t.requests).padStart(8)} ${String(t.prompt).padStart(10)} ${String(t.completion).padStart(10)} ${money(t.quota).padStart(10)}`;
  const total = parent.quota + sub.quota;
  const ratio = total / alone.quota;
  console.log(
    `a scripted ${FILES}-file investigation (~${Math.round(sourceFile(1).length / 1024)} KB each), local gateway prices:`,
  );
  console.log(
    `  ${''.padEnd(34)} ${'requests'.padStart(8)} ${'prompt'.padStart(10)} ${'completion'.padStart(10)} ${'cost'.padStart(10)}`,
  );
  console.log(row('parent alone (gw-chat)', alone));
  console.log(row('with Explore: parent (gw-chat)', parent));
  console.log(row('with Explore: Explore (gw-mini)', sub));
  console.log(
    `  with Explore, total: ${money(total)} = ${(ratio * 100).toFixed(1)}% of the parent alone (at most ${LIMIT * 100}%)`,
  );
  if (!(ratio <= LIMIT)) {
    console.log('  FAIL: the subagent way costs more than the limit');
    process.exitCode = 1;
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
