import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatResult } from '../../../../../src/api/chat/wire';
import { GatewayError } from '../../../../../src/api/transport/errors';
import {
  caseProblem,
  TOOL_CASES,
  toolRequest,
  toolVerdict,
  type ToolCase,
} from '../../../../../src/account/checkup/core/toolProbe';

const byId = (id: string): ToolCase => TOOL_CASES.find((c) => c.id === id)!;
const calls = (...list: Array<[string, string]>): ChatResult => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: list.map(([name, args], i) => ({ id: `c${i}`, type: 'function', function: { name, arguments: args } })),
  },
});
const text = (t: string, reasoning?: string): ChatResult => ({
  message: { role: 'assistant', content: t, ...(reasoning ? { reasoning_content: reasoning } : {}) },
});

void describe('tool probe', () => {
  void it('grades recorded answers', () => {
    assert.equal(caseProblem(byId('one'), calls(['get_weather', '{"city":"Paris"}'])), undefined);
    assert.match(
      caseProblem(byId('parallel'), calls(['get_weather', '{"city":"Paris"}']))!,
      /1 call\(s\) instead of 2/,
    );
    assert.match(caseProblem(byId('one'), calls(['get_weather', '{"city":']))!, /not JSON/);
    assert.match(caseProblem(byId('one'), calls(['get_weather', '{"town":"Paris"}']))!, /arguments\.city is missing/);
    assert.match(
      caseProblem(byId('nested'), calls(['create_event', '{"title":"x","when":{"date":"d"},"attendees":[]}']))!,
      /arguments\.when\.time is missing/,
    );
    assert.match(
      caseProblem(
        byId('nested'),
        calls(['create_event', '{"title":"x","when":{"date":"d","time":"t"},"attendees":[{"name":1,"email":"e"}]}']),
      )!,
      /attendees\[0\]\.name is not a string/,
    );
    assert.match(caseProblem(byId('none'), calls(['get_weather', '{"city":"Paris"}']))!, /no call was due/);
    assert.equal(caseProblem(byId('none'), text('Hello.')), undefined);
    assert.match(caseProblem(byId('result'), text(''))!, /no text/);
  });

  void it('the result turn replays the first answer, with its reasoning', () => {
    const first = {
      ...calls(['get_weather', '{"city":"Paris"}']),
      message: { ...calls(['get_weather', '{"city":"Paris"}']).message, reasoning_content: 'think' },
    };
    const r = toolRequest('m', byId('result'), first);
    assert.deepEqual(
      r.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.equal((r.messages[1] as { reasoning_content?: string }).reasoning_content, 'think');
    assert.equal((r.messages[2] as { tool_call_id: string }).tool_call_id, 'c0');
  });

  void it('verdicts: all well-formed, some not, all refused; reasoning and its replay', () => {
    const good = [
      {
        c: byId('one'),
        outcome: {
          result: {
            ...text('', 'why'),
            message: { ...calls(['get_weather', '{"city":"Paris"}']).message, reasoning_content: 'why' },
          },
        },
      },
      {
        c: byId('result'),
        outcome: { error: new GatewayError('server', 'Missing reasoning_content', { status: 400 }) },
      },
    ];
    const v = toolVerdict(good);
    assert.equal(v.verdict, 'problem');
    assert.ok(
      v.evidence.includes('Reasoning arrived, and the turn that replays it was refused.'),
      v.evidence.join('\n'),
    );
    const refused = toolVerdict(TOOL_CASES.map((c) => ({ c, outcome: { error: new Error('403') } })));
    assert.equal(refused.verdict, 'refused');
    const ok = toolVerdict([{ c: byId('none'), outcome: { result: text('Hi.') } }]);
    assert.equal(ok.verdict, 'ok');
    assert.ok(ok.evidence.includes('No reasoning arrived.'));
  });
});
