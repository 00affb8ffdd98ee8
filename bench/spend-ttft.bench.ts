// Time to first token with the spend feature on against off (issue 21: ratio <= 1.02), through
// the real chat path in plain node: the chat session (src/chat/session/core) sending to the local
// gateway over HTTP, the first `chat/delta` it hands the views taken as the first token. "On"
// adds what the account feature does around each answer in the extension (register.ts and
// answerSpend.ts in src/account/vscode), built from the same core units: the client's observer
// counts the answer in the usage ledger with its price from `/api/pricing`, the balance is read
// after it (debounced; here after every answer, so the read overlaps the next turn's send), and
// the session prices each ended answer. Off and on alternate turn by turn in one run, so the
// machine's drift hits both alike. Prints the medians, p90s and the ratio of the medians;
// asserts nothing about time.
import { performance } from 'node:perf_hooks';
import { GatewayClient, type AnswerSeen } from '../src/api/client';
import { AccountState } from '../src/account/balance/core/accountState';
import { transportOver } from '../src/api/account/transport';
import { PriceBook, parsePricing } from '../src/account/pricing/core/pricing';
import { priceOfAnswer } from '../src/account/spend/core/answerPrice';
import { answerCost } from '../src/account/spend/core/cost';
import { UsageLedger } from '../src/account/spend/core/ledger';
import { ConversationStore } from '../src/chat/history/core/store';
import { ChatSession } from '../src/chat/session/core/session';
import type { SessionDeps } from '../src/chat/session/core/sessionDeps';
import { startGateway } from '../test/gateway/server';
import { MemoryStorage } from '../test/support/memoryStorage';
import { SETTINGS } from '../test/support/sessionHarness';
import { median, percentile } from './support/stats';

const TURNS = 120;
const WARMUP = 10;

type Gw = Awaited<ReturnType<typeof startGateway>>;

/** The account feature's work around answers, as register.ts and answerSpend.ts do it. */
function spendOn(gw: Gw): Pick<SessionDeps, 'priceAnswer'> & { client: GatewayClient; close(): void } {
  // The client is built with the account's observer, as getGatewayClient builds it with s.usage.
  const client: GatewayClient = new GatewayClient(
    { baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 },
    { observer: (a) => observe(a) },
  );
  const transport = transportOver(client.http);
  const ledger = new UsageLedger(new MemoryStorage());
  // Debounced by 5 ms instead of 1.5 s: a balance read after every answer, overlapping the next
  // turn's send (turns here come back to back; a person's come seconds apart): the worst case.
  const state = new AccountState({
    gateway: client.http.baseUrl,
    transport: () => Promise.resolve(transport),
    debounceMs: 5,
  });
  let book: Promise<PriceBook> | undefined;
  const prices = async (): Promise<PriceBook> => {
    if (state.snapshot().status === 'unknown') await state.refreshNow();
    book ??= transport.get('/api/pricing').then((f) => {
      const p = f.kind === 'json' ? parsePricing(f.body, { group: 'default', unit: state.snapshot().unit }) : undefined;
      return new PriceBook(p?.ok ? p.value.prices : []);
    });
    return book;
  };
  const observe = (a: AnswerSeen): void => {
    void (async () => {
      const b = await prices();
      await ledger.recordAnswer({
        gateway: client.http.baseUrl,
        model: a.model,
        usage: a.usage,
        cost: answerCost(a.usage, b.lookup(a.model)),
        unit: state.snapshot().unit,
      });
      state.setToday(ledger.todayQuota(client.http.baseUrl));
      state.afterUse();
    })();
  };
  return {
    client,
    priceAnswer: async (_b, q) => priceOfAnswer(q, (await prices()).lookup(q.model), state.snapshot().unit),
    close: () => state.dispose(),
  };
}

function session(gw: Gw, on: boolean): { session: ChatSession; firstDelta: () => number | undefined; close(): void } {
  const spend = on ? spendOn(gw) : undefined;
  const client = spend?.client ?? new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  let first: number | undefined;
  const storage = new MemoryStorage();
  const s = new ChatSession({
    store: new ConversationStore(storage),
    backend: () => Promise.resolve(client),
    settings: () => SETTINGS,
    contextStorage: storage,
    sink: {
      broadcast: () => undefined,
      delta: () => {
        first ??= performance.now();
      },
    },
    log: { warn: () => undefined, error: () => undefined },
    ...(spend ? { priceAnswer: spend.priceAnswer } : {}),
  });
  return {
    session: s,
    firstDelta: () => {
      const f = first;
      first = undefined;
      return f;
    },
    close: () => {
      spend?.close();
      s.dispose();
    },
  };
}

async function main(): Promise<void> {
  const gw = await startGateway({});
  const runs = { off: session(gw, false), on: session(gw, true) };
  const ttft: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (let i = 0; i < TURNS + WARMUP; i++) {
    // Alternating which goes first, so neither always follows the other's background work.
    const order: Array<'off' | 'on'> = i % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const which of order) {
      const r = runs[which];
      r.session.newChat();
      const t0 = performance.now();
      await r.session.send(`r${i}`, { text: `what does answer ${i} cost`, images: [], contexts: [] });
      const t1 = r.firstDelta();
      if (t1 === undefined) throw new Error(`turn ${i} (${which}) streamed nothing`);
      if (i >= WARMUP) ttft[which].push(t1 - t0);
    }
  }
  // Let the last debounced balance reads finish before the gateway goes.
  await new Promise((r) => setTimeout(r, 200));
  runs.off.close();
  runs.on.close();
  const counts = gw.counts();
  await gw.close();

  const med = { off: median(ttft.off), on: median(ttft.on) };
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(`time to first token through the chat session, ${TURNS} turns each (local gateway):`);
  console.log(`  spend off: median ${f(med.off)}, p90 ${f(percentile(ttft.off, 90))}`);
  console.log(`  spend on:  median ${f(med.on)}, p90 ${f(percentile(ttft.on, 90))}`);
  console.log(
    `  on/off (medians): ${(med.on / med.off).toFixed(3)} (goal <= 1.02); balance reads ${counts['GET /api/usage/token'] ?? 0}, pricing reads ${counts['GET /api/pricing'] ?? 0}`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
