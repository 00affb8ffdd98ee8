import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinAgents, type AgentDefinition } from '../../../../../src/chat/agents/core/agent';
import {
  callableFrom,
  EXPLORE,
  resolveSubagent,
  subagentList,
} from '../../../../../src/chat/subagents/core/definitions';

const custom = (name: string, extra?: Record<string, unknown>): AgentDefinition => ({
  ...EXPLORE,
  id: name,
  name,
  builtin: false,
  ...(extra ? { extra } : {}),
});
const lookUp = (list: AgentDefinition[]) => (n: string) =>
  Promise.resolve([...builtinAgents(), ...list].find((a) => a.name.toLowerCase() === n.toLowerCase()));

void describe('subagent definitions', () => {
  void it("reads `agents:` as VS Code documents it: absent any, [] none, '*' any, names", () => {
    assert.equal(subagentList(custom('a')), undefined);
    assert.deepEqual(subagentList(custom('a', { agents: [] })), { kind: 'names', names: [] });
    assert.deepEqual(subagentList(custom('a', { agents: ['*'] })), { kind: 'any' });
    assert.deepEqual(subagentList(custom('a', { agents: ['Explore', 3] })), { kind: 'names', names: ['Explore'] });
  });

  void it('a subagent starts subagents only when its file lists some, and never past depth 2', () => {
    assert.deepEqual(callableFrom(undefined, 0), { kind: 'any' });
    assert.deepEqual(callableFrom(EXPLORE, 1), { kind: 'names', names: [] });
    assert.deepEqual(callableFrom(custom('lead', { agents: ['Explore'] }), 1), { kind: 'names', names: ['Explore'] });
    assert.deepEqual(callableFrom(custom('lead', { agents: ['*'] }), 2), { kind: 'names', names: [] });
  });

  void it('resolves Explore and custom agents, refusing the built-in Agent, unknown names and unlisted ones', async () => {
    const r = await resolveSubagent('explore', { kind: 'any' }, lookUp([]));
    assert.ok(r.ok && r.agent === EXPLORE);
    const agent = await resolveSubagent('Agent', { kind: 'any' }, lookUp([]));
    assert.ok(!agent.ok && /no subagent named "Agent"/.test(agent.why));
    const unlisted = await resolveSubagent(
      'reviewer',
      { kind: 'names', names: ['Explore'] },
      lookUp([custom('reviewer')]),
    );
    assert.ok(!unlisted.ok && /may not start "reviewer"; it may start: Explore/.test(unlisted.why));
    const none = await resolveSubagent('Explore', { kind: 'names', names: [] }, lookUp([]));
    assert.ok(!none.ok && /may not start subagents/.test(none.why));
    const off = await resolveSubagent(
      'quiet',
      { kind: 'any' },
      lookUp([custom('quiet', { 'disable-model-invocation': true })]),
    );
    assert.ok(!off.ok && /disable-model-invocation/.test(off.why));
  });
});
