import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SUBAGENT_TOOL_DEFINITION } from '../../../../../src/chat/subagents/core/toolDefinition';
import { ToolCallValidator } from '../../../../../src/chat/tools/core/validation';

const call = (args: unknown) => ({
  id: 'c1',
  type: 'function' as const,
  function: { name: 'run_subagent', arguments: JSON.stringify(args) },
});

void describe('the run_subagent definition', () => {
  void it('compiles, accepts one task or a list of up to 8, and refuses unknown fields', () => {
    const v = new ToolCallValidator([SUBAGENT_TOOL_DEFINITION]);
    assert.ok(v.check(call({ agent: 'Explore', task: 'x' })).ok);
    assert.ok(v.check(call({ tasks: [{ agent: 'Explore', task: 'x', model: 'm', profile: 'p' }] })).ok);
    assert.ok(!v.check(call({ tasks: Array.from({ length: 9 }, () => ({ agent: 'a', task: 'b' })) })).ok);
    assert.ok(!v.check(call({ agent: 'Explore', task: 'x', tools: ['run_command'] })).ok);
  });
});
