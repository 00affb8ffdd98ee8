import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinAgents, findAgent, isBuiltinName, PLAN_TOOLS } from '../../../../../src/chat/agents/core/agent';
import { CHANGING_TOOL_NAMES } from '../../../../../src/chat/tools/core/builtins';

void test('the built-in agents: Agent has every tool, Ask the read-only ones, Plan the read and search tools only', () => {
  const [agent, ask, plan] = builtinAgents();
  assert.deepEqual(agent?.tools, { kind: 'all' });
  assert.equal(agent?.instructions, '', "Agent is today's behaviour: nothing added to the prompt");
  assert.deepEqual(ask?.tools, { kind: 'readOnly' });
  assert.deepEqual(plan?.tools, { kind: 'names', names: PLAN_TOOLS });
  for (const t of CHANGING_TOOL_NAMES) assert.ok(!(PLAN_TOOLS as readonly string[]).includes(t), `${t} is not Plan's`);
  assert.match(plan?.instructions ?? '', /End your answer with the plan/);
  assert.deepEqual(plan?.handoffs, [
    { label: 'Start implementing', agent: 'agent', prompt: 'Implement the plan above.', send: true },
  ]);
});

void test("the settings' models go to their agents; an empty setting leaves the conversation's model", () => {
  const list = builtinAgents({ plan: ' cheap-model ', ask: '' });
  assert.deepEqual(
    list.map((a) => a.models),
    [[], [], ['cheap-model']],
  );
});

void test('agents are found by id or name without case; built-in names are reserved', () => {
  const list = builtinAgents();
  assert.equal(findAgent(list, 'PLAN')?.id, 'plan');
  assert.equal(findAgent(list, 'Agent')?.id, 'agent');
  assert.equal(findAgent(list, 'nobody'), undefined);
  assert.ok(isBuiltinName(' Plan '));
  assert.ok(!isBuiltinName('planner'));
});
