import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunCard } from '../../../../../src/chat/subagents/core/runCard';
import type { ApprovalRequest } from '../../../../../src/chat/tools/core/approval';
import type { ToolCardUpdate } from '../../../../../src/chat/tools/core/toolCard';

const usd = { kind: 'USD', quotaPerUnit: 500000, rateMicro: 1000000, symbol: '$' } as const;
const ctx = { signal: new AbortController().signal, conversationId: 'c1', callId: 'call_9' };

void describe('RunCard', () => {
  void it('shows one line per run on the call card, and relays a run’s approvals one at a time', async () => {
    const posts: ToolCardUpdate[] = [];
    const asked: string[] = [];
    let answer!: (d: 'allow') => void;
    const card = new RunCard(
      {
        post: (u) => posts.push(u),
        approve: (r) => {
          asked.push(`${r.callId}:${r.name}`);
          return new Promise((res) => (answer = res));
        },
        money: (c) => `$${c.quota}`,
      },
      ctx,
      '{}',
      ['Explore', 'Explore'],
    );
    card.set(0, {
      model: 'gw-mini',
      state: 'running',
      progress: { requests: 2, rounds: 1, cost: { quota: 7, unit: usd, estimate: false } },
    });
    assert.equal(card.text(), 'Explore (gw-mini) · running · 2 requests, 1 tool rounds · cost $7\nExplore · waiting');
    assert.equal(posts.at(-1)?.callId, 'call_9');
    const req = (name: string): ApprovalRequest => ({
      conversationId: 'c1',
      callId: `call_9.0.${name}`,
      name,
      args: {},
      argumentsJson: '{"command":"ls"}',
      readOnly: false,
      preview: 'command',
      signal: ctx.signal,
    });
    const first = card.approver('Explore')(req('run_command'));
    const second = card.approver('Explore')(req('write_file'));
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(asked, ['call_9:run_command'], "one question at a time, under the parent call's id");
    assert.equal(posts.at(-1)?.state, 'awaiting-approval');
    assert.equal(posts.at(-1)?.name, 'Explore › run_command');
    // Progress arriving while it asks (the request's price, read after it) keeps the question and
    // its buttons on the card: in VS Code this overwrote it, and the run waited for an answer nobody saw.
    card.set(0, { progress: { requests: 2, rounds: 1, lastTool: 'run_command' } });
    assert.equal(posts.at(-1)?.state, 'awaiting-approval');
    assert.equal(posts.at(-1)?.name, 'Explore › run_command');
    assert.equal(posts.at(-1)?.argumentsJson, '{"command":"ls"}');
    answer('allow');
    assert.equal(await first, 'allow');
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(asked, ['call_9:run_command', 'call_9:write_file']);
    answer('allow');
    await second;
    assert.equal(posts.at(-1)?.state, 'running');
  });
});
