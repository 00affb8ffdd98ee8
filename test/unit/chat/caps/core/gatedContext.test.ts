// The spend gate in a real tool loop: a session over the local gateway (real HTTP), the real tool
// runner with built-in tools over a temporary workspace, answers priced from the gateway's usage,
// and a cap of $0.10 per turn. The loop pauses before the request that would pass the cap; Stop
// sends nothing more; Continue goes on up to the raised figure. The bound of capMath.ts holds.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CapGate, type CapDecision, type CapPauseView } from '../../../../../src/chat/caps/core/capGate';
import { CapStopped } from '../../../../../src/chat/caps/core/gatedContext';
import type { SessionCaps } from '../../../../../src/chat/session/core/sessionDeps';
import { builtinTools } from '../../../../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import type { AssistantMessage, HostMessage } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { nodeToolHost } from '../../../../support/nodeToolHost';
import { openSession, question } from '../../../../support/sessionHarness';

const gw = useGateway();
const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;
/** Quota units per token, prompt and answer alike: $0.10 is 50,000 quota, a prompt of some 2,000 tokens is 10,000. */
const PRICE = 5;
let ws: string;

before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-caps-')));
  await fs.writeFile(path.join(ws, 'notes.md'), 'line of notes\n'.repeat(40));
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

/** A session with the built-in tools, answers priced at {@link PRICE}, and a turn cap of $0.10. */
function setUp(decisions: CapDecision[]) {
  const asked: CapPauseView[] = [];
  const runner = new ToolRunner({
    tools: () => builtinTools(nodeToolHost([{ name: 'ws', path: ws }])),
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: () => undefined,
  });
  const caps: SessionCaps = {
    forTurn: (conversation, turn) =>
      new CapGate(conversation, {
        settings: () => ({ turn: 0.1, conversation: undefined, dailyBlocks: false }),
        quote: () => Promise.resolve({ unit: USD, price: { input: PRICE, output: PRICE } }),
        settled: turn.settled,
        ask: (p) => {
          asked.push(p);
          return Promise.resolve(decisions.shift() ?? 'stop');
        },
        notice: () => undefined,
        newId: () => `cap${asked.length + 1}`,
      }),
    messages: () => [],
    refresh: () => undefined,
  };
  const h = openSession(gw, undefined, {
    caps,
    priceAnswer: (_b, q) =>
      Promise.resolve({
        quota: ((q.usage?.prompt_tokens ?? 0) + (q.usage?.completion_tokens ?? 0)) * PRICE,
        unit: USD,
        estimate: false,
      }),
  });
  h.session.setToolExecutor(runner);
  return { ...h, asked };
}

const READ = { calls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] };
const LOOP = `#tools ${JSON.stringify(Array.from({ length: 12 }, () => READ))}`;
const chatRequests = () => gw.requests().filter((r) => r.route === '/v1/chat/completions').length;

function answers(h: ReturnType<typeof setUp>): AssistantMessage[] {
  return h.session.shown.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
}

void describe('spend caps in the tool loop (local gateway)', () => {
  void it('a cap of 0.10 pauses the loop at the step that would pass it, and Stop sends nothing more', async () => {
    const h = setUp(['stop']);
    const from = chatRequests();
    void h.session.send('r1', question(LOOP));
    await h.until(() => h.received.some((m) => m.type === 'chat/error' || m.type === 'chat/done'), 'the end');
    const end = h.received.find((m): m is Extract<HostMessage, { type: 'chat/error' }> => m.type === 'chat/error');
    assert.equal(end?.error.title, new CapStopped().view.title);
    assert.equal(h.asked.length, 1);
    const pause = h.asked[0]!;
    assert.equal(pause.kind, 'turn');
    assert.equal(pause.cap, 50_000);
    assert.ok(pause.spent + pause.prompt > pause.cap, JSON.stringify(pause));
    const sent = chatRequests() - from;
    assert.ok(sent >= 2 && sent < 12, `${sent} requests: the loop paused mid-way`);
    // Nothing more goes out after Stop.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(chatRequests() - from, sent);
    const spent = answers(h).reduce((n, a) => n + (a.cost?.quota ?? 0), 0);
    assert.equal(spent, pause.spent, 'the card names what the turn spent');
    // The bound: only the last request may have crossed, by what it cost beyond its prompt's estimate.
    const last = answers(h)
      .filter((a) => a.usage)
      .at(-1)!;
    const lastCost = last.cost?.quota ?? 0;
    assert.ok(spent - lastCost <= pause.cap, 'every earlier request fitted');
    assert.ok(spent <= pause.cap + lastCost, `spent ${spent} of ${pause.cap}`);
  });

  void it('Continue raises the cap to the figure the card named and the loop goes on', async () => {
    const h = setUp(['continue']);
    void h.session.send('r1', question(LOOP));
    await h.until(() => h.received.some((m) => m.type === 'chat/error' || m.type === 'chat/done'), 'the end');
    // The raised cap (what was spent plus the step's most: its whole answer room) outlasts the script.
    assert.equal(h.asked.length, 1);
    assert.ok(h.received.some((m) => m.type === 'chat/done'));
    const spent = answers(h).reduce((n, a) => n + (a.cost?.quota ?? 0), 0);
    assert.ok(spent > h.asked[0]!.cap && spent <= h.asked[0]!.upTo, `spent ${spent}`);
  });
});
