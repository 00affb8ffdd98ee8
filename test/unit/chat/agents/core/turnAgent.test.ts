import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinAgents, type AgentDefinition } from '../../../../../src/chat/agents/core/agent';
import { agentAllows, matchModel, turnAgent } from '../../../../../src/chat/agents/core/turnAgent';

const [agent, ask, plan] = builtinAgents() as [AgentDefinition, AgentDefinition, AgentDefinition];
const custom = (o: Partial<AgentDefinition>): AgentDefinition => ({
  id: 'reviewer',
  name: 'reviewer',
  builtin: false,
  description: '',
  tools: { kind: 'all' },
  models: [],
  instructions: '',
  handoffs: [],
  userInvocable: true,
  problems: [],
  source: { path: '/ws/.github/agents/reviewer.agent.md', scope: 'workspace', format: 'vscode' },
  ...o,
});
const IDS = ['gw-chat', 'gw-cheap', 'anthropic/claude-sonnet-4-5', 'GPT-5.2'];

void test("each built-in agent's tools as a rule: Ask reads, Plan reads and searches, Agent does all", () => {
  assert.ok(agentAllows(agent)('run_command', false));
  assert.ok(agentAllows(ask)('read_file', true));
  assert.ok(!agentAllows(ask)('write_file', false));
  assert.ok(agentAllows(plan)('search_text', true));
  assert.ok(!agentAllows(plan)('edit_file', false));
  // Plan's list is by name: an outside tool that says it only reads is still not Plan's.
  assert.ok(!agentAllows(plan)('lm_some_reader', true));
});

void test("a question's tools (a prompt file's) narrow the agent's, never widen them", () => {
  const t = turnAgent({ agent: plan, questionTools: ['edit', 'read/readFile'], modelIds: IDS });
  assert.ok(t.allows('read_file', true));
  assert.ok(!t.allows('edit_file', false), 'Plan has no edit tool whatever the question lists');
  assert.ok(!t.allows('search_text', true), 'not in the question list');
});

void test("models: the first of the agent's list the gateway offers, matched as the documented names are written", () => {
  assert.equal(
    turnAgent({ agent: custom({ models: ['GPT-5.2 (copilot)', 'gw-chat'] }), modelIds: IDS }).model,
    'GPT-5.2',
  );
  assert.equal(turnAgent({ agent: custom({ models: ['nope', 'gw-cheap'] }), modelIds: IDS }).model, 'gw-cheap');
  assert.equal(matchModel('sonnet', IDS), 'anthropic/claude-sonnet-4-5', "Claude's alias");
  assert.equal(matchModel('claude-sonnet-4-5', IDS), 'anthropic/claude-sonnet-4-5', 'without the provider');
  assert.equal(matchModel('gw chat', IDS), 'gw-chat');
  assert.equal(matchModel('', IDS), undefined);
});

void test("a file's model the gateway does not list is not used: the conversation's model answers, with a note", () => {
  // Another profile's model, or a name that tries to carry a profile or an address: only this
  // gateway's own list is matched, so the turn goes nowhere else and with no other key.
  for (const m of ['other-profile:gpt-4o', 'https://evil.example/v1 gw-chat', 'gw-chat@other']) {
    const t = turnAgent({ agent: custom({ models: [m] }), modelIds: IDS });
    assert.equal(t.model, undefined, m);
    assert.match(t.notes[0] ?? '', /none of its models/);
  }
  // The list could not be read: a file's names are not sent unchecked.
  assert.equal(turnAgent({ agent: custom({ models: ['gw-chat'] }), modelIds: [] }).model, undefined);
});

void test("a built-in agent's model comes from the user's own setting and is sent as typed, like the model box", () => {
  const [, , cheapPlan] = builtinAgents({ plan: 'my-custom-id' });
  assert.equal(turnAgent({ agent: cheapPlan!, modelIds: IDS }).model, 'my-custom-id');
  assert.equal(turnAgent({ agent: cheapPlan!, modelIds: [] }).model, 'my-custom-id');
});

void test("a handoff's model is tried first, and only from the gateway's list", () => {
  const [, , cheapPlan] = builtinAgents({ plan: 'gw-cheap' });
  assert.equal(turnAgent({ agent: cheapPlan!, model: 'gw-chat', modelIds: IDS }).model, 'gw-chat');
  assert.equal(turnAgent({ agent: cheapPlan!, model: 'unlisted', modelIds: IDS }).model, 'gw-cheap');
});
