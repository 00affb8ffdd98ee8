// One turn's spend gate over a conversation whose answers carry their costs, with the prices and
// the card faked: what it adds up, when it pauses, what Continue raises, and the lines it says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CapGate,
  type CapDecision,
  type CapPauseView,
  type CapSettings,
  type RequestQuote,
} from '../../../../../src/chat/caps/core/capGate';
import type { MoneyUnit } from '../../../../../src/shared/money';
import type { AssistantMessage, Conversation } from '../../../../../src/shared/protocol';

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;
const CNY = { kind: 'CNY', quotaPerUnit: 500_000, rateMicro: 7_300_000, symbol: '¥' } as const;

function answer(id: string, quota: number | undefined, unit: MoneyUnit = USD): AssistantMessage {
  return {
    id,
    role: 'assistant',
    content: 'x',
    status: 'done',
    requestedModel: 'gw-chat',
    createdAt: 1,
    ...(quota !== undefined ? { cost: { quota, unit, estimate: false } } : {}),
  };
}

function conv(messages: Conversation['messages'] = []): Conversation {
  return { id: 'c1', title: 't', model: 'gw-chat', params: {}, messages, createdAt: 1, updatedAt: 1 };
}

/** A gate over `c` whose card answers from `decisions` in turn (Stop when they run out). */
function gate(
  c: Conversation,
  o: {
    settings?: Partial<CapSettings>;
    quote?: RequestQuote | undefined;
    decisions?: CapDecision[];
    sideSpent?: (unit: MoneyUnit) => number;
  } = {},
) {
  const asked: CapPauseView[] = [];
  const notices: string[] = [];
  let settled = 0;
  let n = 0;
  const decisions = [...(o.decisions ?? [])];
  const g = new CapGate(c, {
    settings: () => ({ turn: undefined, conversation: undefined, dailyBlocks: false, ...o.settings }),
    quote: () => Promise.resolve('quote' in o ? o.quote : { unit: USD, price: { input: 1, output: 2 } }),
    settled: () => {
      settled++;
      return Promise.resolve();
    },
    ask: (p) => {
      asked.push(p);
      return Promise.resolve(decisions.shift() ?? 'stop');
    },
    notice: (t) => notices.push(t),
    newId: () => `cap${++n}`,
    ...(o.sideSpent ? { sideSpent: o.sideSpent } : {}),
  });
  return { g, asked, notices, settled: () => settled };
}

const step = (promptTokens: number, maxAnswerTokens = 100) => ({ model: 'gw-chat', promptTokens, maxAnswerTokens });

void describe('spend caps: the gate of a turn', () => {
  void it('without caps asks for no price and sends', async () => {
    const c = conv();
    const t = gate(c, { quote: undefined });
    assert.equal(await t.g.beforeSend(step(1e9)), true);
    assert.equal(t.settled(), 0, 'no wait for prices when nothing is capped');
    assert.deepEqual(t.notices, []);
  });

  void it('counts only this turn’s answers against the turn cap, waiting for their prices first', async () => {
    // $0.10 = 50,000 quota; earlier turns spent 40,000, this one 30,000 so far.
    const c = conv([answer('a0', 40_000)]);
    const t = gate(c, { settings: { turn: 0.1 } });
    c.messages.push(
      { id: 'u1', role: 'user', text: 'go', images: [], contexts: [], createdAt: 1 },
      answer('a1', 30_000),
    );
    assert.equal(await t.g.beforeSend(step(20_000)), true, '30,000 + 20,000 fits in 50,000');
    assert.equal(t.settled(), 1);
    c.messages.push(answer('a2', 1));
    assert.equal(await t.g.beforeSend(step(20_000)), false, 'one quota unit more does not');
    assert.deepEqual(t.asked[0], {
      kind: 'turn',
      spent: 30_001,
      cap: 50_000,
      prompt: 20_000,
      atMost: 20_200,
      upTo: 80_001,
      id: 'cap1',
      unit: USD,
      model: 'gw-chat',
    });
  });

  void it("counts the turn's subagent runs (spent outside its answers) against the turn's cap", async () => {
    const c = conv();
    let side = 0;
    const t = gate(c, { settings: { turn: 0.1 }, sideSpent: (unit) => (unit === USD ? side : 0) });
    c.messages.push(answer('a1', 10_000));
    assert.equal(await t.g.beforeSend(step(20_000)), true, '10,000 + 20,000 fits in 50,000');
    side = 25_000;
    assert.equal(await t.g.beforeSend(step(20_000)), false, 'with a subagent run of 25,000 it does not');
    assert.equal(t.asked[0]?.spent, 35_000);
  });

  void it('Continue raises the turn’s cap for this turn; the conversation’s is kept with the conversation', async () => {
    const c = conv([answer('a0', 45_000)]);
    const t = gate(c, { settings: { turn: 0.1, conversation: 0.1 }, decisions: ['continue', 'continue'] });
    c.messages.push(answer('a1', 45_000));
    // Turn: 45,000 + 10,000 > 50,000, then the conversation: 90,000 + 10,000 > 50,000.
    assert.equal(await t.g.beforeSend(step(10_000)), true);
    assert.deepEqual(
      t.asked.map((p) => [p.kind, p.upTo]),
      [
        ['turn', 95_000],
        ['conversation', 140_000],
      ],
    );
    assert.deepEqual(c.caps, { conversation: 0.28 });
    // Raised: the next step within the raised caps goes without a card.
    c.messages.push(answer('a2', 10_000));
    assert.equal(await t.g.beforeSend(step(30_000)), true);
    assert.equal(t.asked.length, 2);
  });

  void it('the conversation’s own caps win over the settings', async () => {
    const c = { ...conv([answer('a0', 10)]), caps: { turn: 1 } };
    const t = gate(c, { settings: { turn: 0.00001 } });
    c.messages.push(answer('a1', 100));
    assert.equal(await t.g.beforeSend(step(100)), true);
  });

  void it('a cap of 0, a negative one or text gets a clear line once, and no cap applies', async () => {
    const t = gate(conv(), { settings: { turn: 0, conversation: -2 } });
    assert.equal(await t.g.beforeSend(step(1e9)), true);
    assert.equal(await t.g.beforeSend(step(1e9)), true);
    assert.equal(t.notices.length, 2, t.notices.join('\n'));
    assert.match(t.notices[0] ?? '', /gatewayStudio\.spend\.capPerTurn is 0: a spend cap must be more than 0/);
    assert.match(t.notices[1] ?? '', /gatewayStudio\.spend\.capPerConversation is -2/);
    const own = gate({ ...conv(), caps: { turn: -1 } }, { settings: { turn: 'lots' } });
    await own.g.beforeSend(step(1));
    assert.match(own.notices[0] ?? '', /This conversation's cap per turn is -1/);
  });

  void it('without a price says the caps are not checked, once, and sends', async () => {
    const t = gate(conv(), { settings: { turn: 0.1 }, quote: undefined });
    assert.equal(await t.g.beforeSend(step(1e9)), true);
    assert.equal(await t.g.beforeSend(step(1e9)), true);
    assert.deepEqual(t.notices, [
      'Your spend caps are not checked for gw-chat: no price is known for it (gatewayStudio.spend.prices).',
    ]);
  });

  void it('the daily limit that blocks pauses on today’s spend; Stop stops', async () => {
    const t = gate(conv(), {
      settings: { dailyBlocks: true },
      quote: { unit: USD, price: { input: 1 }, daily: { spent: 600, limit: 500 } },
    });
    assert.equal(await t.g.beforeSend(step(1)), false);
    assert.equal(t.asked[0]?.kind, 'daily');
    assert.equal(t.asked[0]?.spent, 600);
  });

  void it('answers priced in another unit are not added, and that is said', async () => {
    const c = conv();
    const t = gate(c, { settings: { turn: 0.1 } });
    c.messages.push(answer('a1', 1e9, CNY));
    assert.equal(await t.g.beforeSend(step(1000)), true);
    assert.match(t.notices[0] ?? '', /another gateway's unit/);
  });
});
