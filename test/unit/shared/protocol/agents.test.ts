// The agent picker's and the handoffs' messages: the page may pick an agent and send a handoff
// (bounded strings, a request id), and the list it gets carries no file path or instructions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostMessageSchema, parseWebviewMessage } from '../../../../src/shared/protocol';

void describe('agents/* messages', () => {
  void it('a pick names an agent; an empty or overlong one is refused', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'agents/select', id: 'plan' }), {
      ok: true,
      message: { type: 'agents/select', id: 'plan' },
    });
    for (const id of ['', 'x'.repeat(201), 3])
      assert.equal(parseWebviewMessage({ type: 'agents/select', id }).ok, false);
  });

  void it('a handoff carries its request id, agent, prompt and optional model', () => {
    const ok = parseWebviewMessage({
      type: 'agents/handoff',
      requestId: 'r1',
      agent: 'agent',
      prompt: 'Implement the plan above.',
      model: 'gw-chat',
    });
    assert.ok(ok.ok);
    assert.equal(
      parseWebviewMessage({ type: 'agents/handoff', agent: 'agent', prompt: 'x' }).ok,
      false,
      'no request id',
    );
    assert.equal(
      parseWebviewMessage({ type: 'agents/handoff', requestId: 'r1', agent: 'agent', prompt: 'x'.repeat(10_001) }).ok,
      false,
    );
  });

  void it('the list keeps what the picker shows; a path or instructions sent along are not carried', () => {
    const r = hostMessageSchema.safeParse({
      type: 'agents/list',
      agents: [
        {
          id: 'plan',
          name: 'Plan',
          description: 'plans',
          builtin: true,
          handoffs: [{ label: 'Start implementing', agent: 'agent', prompt: 'Go.', send: true }],
          path: '/home/u/.claude/agents/x.md',
          instructions: 'secret instructions',
        },
      ],
    });
    assert.ok(r.success);
    assert.ok(!JSON.stringify(r.data).includes('/home/u'));
    assert.ok(!JSON.stringify(r.data).includes('secret instructions'));
  });
});
