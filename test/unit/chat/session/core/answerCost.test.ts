// The cost of each answer in the chat session: asked for after the answer ended (never on the
// send path), attached to the answer, sent to the page and kept in the saved conversation. The
// turns go through real HTTP to the local gateway.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TurnCosts,
  billable,
  cachedTokens,
  costQuery,
  type CostQuery,
} from '../../../../../src/chat/session/core/answerCost';
import { ConversationStore } from '../../../../../src/chat/history/core/store';
import type { AnswerCost, AssistantMessage, Conversation, HostMessage } from '../../../../../src/shared/protocol';
import { useGateway } from '../../../../support/helpers';
import { openSession, question } from '../../../../support/sessionHarness';

const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;
const gw = useGateway();

function answer(o: Partial<AssistantMessage> = {}): AssistantMessage {
  return { id: 'a1', role: 'assistant', content: 'hi', status: 'done', requestedModel: 'gw-chat', createdAt: 1, ...o };
}
function conv(messages: Conversation['messages']): Conversation {
  return { id: 'c1', title: 't', model: 'gw-chat', params: {}, messages, createdAt: 1, updatedAt: 1 } as Conversation;
}

void describe('answer cost (core)', () => {
  void it('prices an ended answer that brought something back; a streaming or empty failure is not billed', () => {
    assert.equal(billable(answer({ status: 'streaming' })), false);
    assert.equal(billable(answer({ status: 'error', content: '' })), false);
    assert.equal(billable(answer({ status: 'stopped', content: 'par' })), true);
    assert.equal(
      billable(answer({ content: '', usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } })),
      true,
    );
  });

  void it("sends the gateway's usage with its cached tokens, or the tokens counted here without it", () => {
    const withUsage = answer({
      usage: {
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 4 },
      } as AssistantMessage['usage'],
    });
    assert.deepEqual(costQuery(conv([withUsage]), withUsage), {
      model: 'gw-chat',
      usage: { prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } },
    });
    const q: Conversation['messages'][number] = {
      id: 'u1',
      role: 'user',
      text: 'abcdefgh',
      images: [],
      contexts: [],
      createdAt: 1,
    };
    const bare = answer({ content: 'abcd' });
    assert.deepEqual(costQuery(conv([q, bare]), bare), {
      model: 'gw-chat',
      estimated: { prompt_tokens: 2, completion_tokens: 1 },
    });
    assert.equal(cachedTokens({ prompt_tokens_details: { cached_tokens: -1 } }), undefined);
    assert.equal(cachedTokens({ prompt_tokens_details: 'x' }), undefined);
  });

  void it('asks once per answer and puts the cost back on a later copy of the same answer', async () => {
    const asked: CostQuery[] = [];
    const attached: string[] = [];
    const cost: AnswerCost = { quota: 7, unit: USD, estimate: false };
    const costs = new TurnCosts(
      (q) => {
        asked.push(q);
        return Promise.resolve(cost);
      },
      (id) => attached.push(id),
      () => undefined,
    );
    const a = answer();
    const c = conv([structuredClone(a)]);
    costs.seen(c, structuredClone(a));
    costs.seen(c, structuredClone(a));
    await new Promise((r) => setImmediate(r));
    assert.equal(asked.length, 1);
    assert.deepEqual(attached, ['a1']);
    // The turn reports the answer again (a new status): its copy and the stored one keep the cost.
    c.messages[0] = answer({ status: 'stopped' });
    const again = answer({ status: 'stopped' });
    costs.seen(c, again);
    assert.deepEqual(again.cost, cost);
    assert.deepEqual((c.messages[0] as AssistantMessage).cost, cost);
  });
});

void describe('answer cost in the session (local gateway)', () => {
  void it('the cost reaches the page after the answer ended and is saved with the conversation', async () => {
    const queries: CostQuery[] = [];
    const order: string[] = [];
    const h = openSession(gw, undefined, {
      priceAnswer: (backend, q) => {
        order.push(`priced after ${h.received.filter((m) => m.type === 'chat/delta').length} deltas`);
        queries.push(q);
        assert.ok('http' in backend, 'the client that answered, for its gateway');
        return Promise.resolve({ quota: 1234, unit: USD, estimate: false });
      },
    });
    void h.session.send('r1', question('what does it cost'));
    await h.until(() => h.received.some((m) => m.type === 'chat/cost'), 'the cost');
    const cost = h.received.find((m): m is Extract<HostMessage, { type: 'chat/cost' }> => m.type === 'chat/cost');
    assert.equal(cost?.conversationId, h.session.conversationId);
    assert.ok(order[0] !== 'priced after 0 deltas', 'asked after the answer streamed, not before the send');
    assert.equal(queries.length, 1);
    assert.ok((queries[0]?.usage?.prompt_tokens ?? 0) > 0, JSON.stringify(queries[0]));
    await h.until(() => h.received.some((m) => m.type === 'chat/done'), 'the end of the turn');
    // Saved: a reload shows the cost under the answer.
    await h.until(() => {
      const saved = new ConversationStore(h.storage).load(h.session.conversationId);
      return saved?.messages.some((m) => m.role === 'assistant' && m.cost?.quota === 1234) === true;
    }, 'the saved cost');
  });

  void it('a pricer that never answers delays nothing; an answer without usage is priced from counted tokens', async () => {
    const queries: CostQuery[] = [];
    const h = openSession(gw, undefined, {
      priceAnswer: (_b, q) => {
        queries.push(q);
        return new Promise(() => undefined);
      },
    });
    gw.fault({ match: { path: '/chat/completions' }, usage: 'none' });
    void h.session.send('r1', question('no usage here'));
    await h.until(() => h.received.some((m) => m.type === 'chat/done'), 'the answer, with the price pending');
    assert.equal(queries.length, 1);
    assert.equal(queries[0]?.usage, undefined);
    assert.ok((queries[0]?.estimated?.prompt_tokens ?? 0) > 0 && (queries[0]?.estimated?.completion_tokens ?? 0) > 0);
  });

  void it('a cost that comes after the user opened another conversation is stored on its answer, in its conversation', async () => {
    let resolve: (c: AnswerCost) => void = () => undefined;
    const h = openSession(gw, undefined, {
      priceAnswer: () => new Promise<AnswerCost>((r) => (resolve = r)),
    });
    void h.session.send('r1', question('priced late'));
    await h.until(() => h.received.some((m) => m.type === 'chat/done'), 'the end of the turn');
    const first = h.session.conversationId;
    h.session.newChat();
    assert.notEqual(h.session.conversationId, first);
    resolve({ quota: 777, unit: USD, estimate: false });
    await h.until(() => {
      const saved = new ConversationStore(h.storage).load(first);
      return saved?.messages.some((m) => m.role === 'assistant' && m.cost?.quota === 777) === true;
    }, 'the late cost saved with the first conversation');
    assert.ok(
      !h.received.some((m) => m.type === 'chat/cost'),
      'nothing is sent to a page that shows another conversation',
    );
  });
});
