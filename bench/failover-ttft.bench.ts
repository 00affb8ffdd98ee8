// Time to first token with failover configured and the first profile healthy, against a single
// profile (issue 39: within 2%), through the real chat path in plain node: the chat session
// (src/chat/session/core) sending to the local gateway over HTTP, the first `chat/delta` it hands
// the views taken as the first token. "Failover" is what the extension builds per turn
// (src/chat/failover/vscode/failover.ts): a FailoverBackend around the profile's client, with a
// list naming a second gateway instance, its cool-downs and model lists, over the same core units.
// The two alternate turn by turn in one run, so the machine's drift hits both alike. Prints the
// medians, p90s and the ratio of the medians, and how many requests the second instance got (0:
// a healthy first profile never asks it); asserts nothing about time.
import { performance } from 'node:perf_hooks';
import { GatewayClient } from '../src/api/client';
import { CoolDowns, type CoolDown } from '../src/chat/failover/core/coolDowns';
import { FailoverBackend, ModelLists, type FailoverTarget } from '../src/chat/failover/core/failoverBackend';
import { readFailoverLists } from '../src/chat/failover/core/failoverPlan';
import { ConversationStore } from '../src/chat/history/core/store';
import { ChatSession } from '../src/chat/session/core/session';
import type { SessionBackend } from '../src/chat/session/core/sessionDeps';
import { SECOND_GATEWAY } from '../test/gateway/keys';
import { startGateway } from '../test/gateway/server';
import { MemoryStorage } from '../test/support/memoryStorage';
import { SETTINGS } from '../test/support/sessionHarness';
import { median, percentile } from './support/stats';

const TURNS = 400;
const WARMUP = 10;

type Gw = Awaited<ReturnType<typeof startGateway>>;

/** The backend the extension builds for each turn: the profile's client, failing over by the list. */
function failoverBackendOf(a: Gw, b: Gw): () => Promise<SessionBackend> {
  const clientA = new GatewayClient({ baseUrl: a.url, apiKey: a.keys.valid, maxRetries: 0 });
  const clientB = new GatewayClient({
    baseUrl: b.url,
    apiKey: b.keys.valid,
    headers: { [SECOND_GATEWAY.requiredHeader.name]: SECOND_GATEWAY.requiredHeader.value },
    maxRetries: 0,
  });
  const target = (id: string, c: GatewayClient): FailoverTarget => ({
    profileId: id,
    name: id,
    client: c,
    relay: c.http.baseUrl,
  });
  let stored: Record<string, CoolDown> = {};
  const deps = {
    lists: () => readFailoverLists({ 'gw-chat': ['a', 'b'] }),
    profiles: () => [
      { id: 'a', name: 'a', problems: [] },
      { id: 'b', name: 'b', problems: [] },
    ],
    target: (id: string) => Promise.resolve(target(id, id === 'a' ? clientA : clientB)),
    coolDowns: new CoolDowns({ load: () => stored, save: (all) => void (stored = all) }),
    models: new ModelLists(),
    timeText: (ms: number) => new Date(ms).toISOString(),
    log: () => undefined,
  };
  return () => Promise.resolve(new FailoverBackend(target('a', clientA), deps));
}

function session(backend: () => Promise<SessionBackend>) {
  let first: number | undefined;
  const storage = new MemoryStorage();
  const s = new ChatSession({
    store: new ConversationStore(storage),
    backend,
    settings: () => SETTINGS,
    contextStorage: storage,
    sink: {
      broadcast: () => undefined,
      delta: () => {
        first ??= performance.now();
      },
    },
    log: { warn: () => undefined, error: () => undefined },
  });
  return {
    session: s,
    firstDelta: () => {
      const f = first;
      first = undefined;
      return f;
    },
  };
}

async function main(): Promise<void> {
  const a = await startGateway({});
  const b = await startGateway({ ...SECOND_GATEWAY });
  const single = new GatewayClient({ baseUrl: a.url, apiKey: a.keys.valid, maxRetries: 0 });
  const runs = { single: session(() => Promise.resolve(single)), failover: session(failoverBackendOf(a, b)) };
  const ttft: Record<keyof typeof runs, number[]> = { single: [], failover: [] };
  for (let i = 0; i < TURNS + WARMUP; i++) {
    const order: Array<keyof typeof runs> = i % 2 === 0 ? ['single', 'failover'] : ['failover', 'single'];
    for (const which of order) {
      const r = runs[which];
      r.session.newChat();
      const t0 = performance.now();
      await r.session.send(`r${i}`, { text: `answer ${i} quickly`, images: [], contexts: [] });
      const t1 = r.firstDelta();
      if (t1 === undefined) throw new Error(`turn ${i} (${which}) streamed nothing`);
      if (i >= WARMUP) ttft[which].push(t1 - t0);
    }
  }
  runs.single.session.dispose();
  runs.failover.session.dispose();
  const asked = b.requests().length;
  await a.close();
  await b.close();

  const med = { single: median(ttft.single), failover: median(ttft.failover) };
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(`time to first token through the chat session, ${TURNS} turns each (local gateway):`);
  console.log(`  single profile:                   median ${f(med.single)}, p90 ${f(percentile(ttft.single, 90))}`);
  console.log(
    `  failover configured, first healthy: median ${f(med.failover)}, p90 ${f(percentile(ttft.failover, 90))}`,
  );
  console.log(
    `  failover/single (medians): ${(med.failover / med.single).toFixed(3)} (goal <= 1.02); requests to the second profile: ${asked}`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
