import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECKUP_TOOLS, EVENT, TOOL_CASES, WEATHER } from '../../../../../src/account/checkup/core/toolCases';
import { schemaProblem } from '../../../../../src/account/checkup/core/toolProbe';

void describe('tool cases', () => {
  void it('five cases: one call, parallel, nested, none, a result turn', () => {
    assert.deepEqual(
      TOOL_CASES.map((c) => c.id),
      ['one', 'parallel', 'nested', 'none', 'result'],
    );
  });

  void it('every expected call names a tool of the schema and fits it', () => {
    const schemas: Record<string, typeof WEATHER> = { get_weather: WEATHER, create_event: EVENT };
    for (const c of TOOL_CASES)
      for (const e of c.expect) {
        assert.ok(
          CHECKUP_TOOLS.some((t) => t.function.name === e.name),
          e.name,
        );
        assert.equal(schemaProblem(e.arguments, schemas[e.name]!), undefined, `${c.id}: ${e.name}`);
      }
  });
});
