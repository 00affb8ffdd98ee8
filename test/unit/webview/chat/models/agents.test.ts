// The agents model (webview/chat/models/agents.ts) and what acts on it (agentActions.ts): the
// picker's list and choice, the handoff buttons under the last answer, what a handoff asks of the host.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEntry } from '../../../../../src/shared/protocol';
import { agentName, handoffsFor, pickAgent, runHandoff } from '../../../../../webview/chat/models/agentActions';
import { createAgentsModel } from '../../../../../webview/chat/models/agents';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { recordPosts } from '../../nodePage';
import { answer, conversation, DEFAULTS, user } from './fixtures';

const START = { label: 'Start implementing', agent: 'agent', prompt: 'Implement the plan above.', send: true };
const LIST: AgentEntry[] = [
  { id: 'agent', name: 'Agent', description: 'all tools', builtin: true, handoffs: [] },
  { id: 'ask', name: 'Ask', description: 'read-only', builtin: true, handoffs: [] },
  { id: 'plan', name: 'Plan', description: 'plans', builtin: true, model: 'gw-cheap', handoffs: [START] },
  {
    id: 'Reviewer',
    name: 'Reviewer',
    description: 'reviews',
    builtin: false,
    handoffs: [{ label: 'Fix it', agent: 'agent', prompt: 'Fix what the review found.', send: false }],
  },
];

function setUp(agent?: string, messages = [user('u1'), answer('a1', { agent: 'plan' })]) {
  const posted = recordPosts();
  const c = createConversationModel({ t: createStringsModel().t });
  let drafted = '';
  const a = createAgentsModel({ conversation: c, draft: (text) => (drafted = text) });
  c.show(conversation('c1', messages, agent ? { agent } : {}), DEFAULTS, 'gw-chat', '');
  a.onHost({ type: 'agents/list', agents: LIST });
  return { posted, c, a, drafted: () => drafted };
}

void test("the picker shows the conversation's agent; an old conversation (none stored) and a deleted one show Agent", () => {
  assert.equal(setUp().a.active.value, 'agent');
  assert.equal(setUp('plan').a.active.value, 'plan');
  assert.equal(setUp('reviewer').a.active.value, 'Reviewer', 'names match without case');
  assert.equal(setUp('gone').a.active.value, 'agent');
});

void test('a pick is shown at once and asked of the host; Agent is stored as none', () => {
  const { a, c, posted } = setUp();
  pickAgent(a, 'plan');
  assert.equal(a.active.value, 'plan');
  pickAgent(a, 'agent');
  assert.equal(c.meta.value?.agent, undefined);
  assert.deepEqual(posted, [
    { type: 'agents/select', id: 'plan' },
    { type: 'agents/select', id: 'agent' },
  ]);
});

void test("Plan's last answer offers Start implementing; an earlier answer, a running request or a failed answer offers none", () => {
  const { a, c } = setUp('plan', [
    user('u1'),
    answer('a1', { agent: 'plan' }),
    user('u2'),
    answer('a2', { agent: 'plan' }),
  ]);
  const a1 = c.messages.get('a1')!.value as ReturnType<typeof answer>;
  const a2 = c.messages.get('a2')!.value as ReturnType<typeof answer>;
  assert.deepEqual(handoffsFor(a, a2), [START]);
  assert.deepEqual(handoffsFor(a, a1), []);
  assert.deepEqual(handoffsFor(a, { ...a2, status: 'error' }), []);
  c.busyRequestId.value = 'r9';
  assert.deepEqual(handoffsFor(a, a2), []);
  // An answer from Agent (or from before agents) has no handoffs.
  c.busyRequestId.value = undefined;
  assert.deepEqual(handoffsFor(a, { ...a2, agent: undefined }), []);
});

void test('Start implementing (send: true) switches to Agent and sends the prompt as one request', () => {
  const { a, c, posted } = setUp('plan');
  runHandoff(a, START);
  assert.equal(a.active.value, 'agent');
  assert.equal(posted.length, 1);
  const [msg] = posted;
  assert.equal(msg?.type, 'agents/handoff');
  assert.deepEqual(
    { ...msg, requestId: 'x' },
    {
      type: 'agents/handoff',
      requestId: 'x',
      agent: 'agent',
      prompt: 'Implement the plan above.',
    },
  );
  assert.equal(c.busyRequestId.value, (msg as { requestId: string }).requestId, 'busy until the host answers');
  runHandoff(a, START);
  assert.equal(posted.length, 1, 'not twice while it runs');
});

void test('a handoff with send: false switches and leaves its prompt in the message box', () => {
  const { a, posted, drafted } = setUp('Reviewer');
  runHandoff(a, { label: 'Fix it', agent: 'agent', prompt: 'Fix what the review found.', send: false });
  assert.equal(drafted(), 'Fix what the review found.');
  assert.deepEqual(posted, [{ type: 'agents/select', id: 'agent' }]);
});

void test("names for answers and cost shares: the list's, else the id", () => {
  const { a } = setUp();
  assert.equal(agentName(a, 'plan'), 'Plan');
  assert.equal(agentName(a, undefined), 'Agent');
  assert.equal(agentName(a, 'deleted'), 'deleted');
});
