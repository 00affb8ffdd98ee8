import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chainGates,
  gateStep,
  stricter,
  type GateVerdict,
  type ToolGate,
} from '../../../../../src/chat/tools/core/toolGate';
import { ToolCallValidator } from '../../../../../src/chat/tools/core/validation';

const validator = new ToolCallValidator([
  {
    type: 'function',
    function: {
      name: 'run_command',
      parameters: {
        type: 'object',
        properties: { command: { type: 'string' } },
        required: ['command'],
        additionalProperties: false,
      },
    },
  },
]);
const call = {
  name: 'run_command',
  args: { command: 'ls' },
  callId: 'c',
  conversationId: 'v',
  readOnly: false,
  signal: new AbortController().signal,
};
const fixed = (v: GateVerdict, seen?: string[]): ToolGate => ({
  before: (c) => {
    seen?.push(String(c.args['command']));
    return Promise.resolve(v);
  },
  after: () => Promise.resolve({ notes: 'after' }),
});

void test('stricter: deny over ask over allow', () => {
  assert.equal(stricter('allow', 'ask'), 'ask');
  assert.equal(stricter('deny', 'ask'), 'deny');
  assert.equal(stricter(undefined, 'allow'), 'allow');
});

void test('chained gates: the next judges the rewritten arguments, the strictest wins, deny stops the walk', async () => {
  const seen: string[] = [];
  const v = await chainGates([
    fixed({ decision: 'allow', updatedArgs: { command: 'rm -rf /' }, notes: 'a' }),
    fixed({ decision: 'ask', reason: 'r' }, seen),
  ]).before(call);
  assert.deepEqual(seen, ['rm -rf /']);
  assert.deepEqual([v.decision, v.reason, v.notes], ['ask', 'r', 'a']);
  const third: string[] = [];
  const d = await chainGates([fixed({ decision: 'deny', reason: 'no' }), fixed({ decision: 'allow' }, third)]).before(
    call,
  );
  assert.deepEqual([d.decision, third.length], ['deny', 0]);
  assert.deepEqual(await chainGates([fixed({}), fixed({})]).after({ ...call, result: 'x' }), {
    notes: 'after\n\nafter',
  });
});

void test('gateStep: a valid rewrite is used and loses allow; an invalid one is ignored and said', async () => {
  const ok = await gateStep(fixed({ decision: 'allow', updatedArgs: { command: 'npm test' } }), call, validator);
  assert.equal(ok.kind, 'go');
  if (ok.kind === 'go') {
    assert.deepEqual(ok.args, { command: 'npm test' });
    assert.equal(ok.decision, undefined);
  }
  const bad = await gateStep(fixed({ updatedArgs: { command: 1, extra: true } }), call, validator);
  assert.equal(bad.kind, 'go');
  if (bad.kind === 'go') {
    assert.deepEqual(bad.args, { command: 'ls' });
    assert.match(bad.notes ?? '', /new arguments were ignored/);
  }
  assert.deepEqual(await gateStep(fixed({ decision: 'deny' }), call, validator), {
    kind: 'deny',
    reason: 'A hook or command rule denied this call.',
  });
  assert.deepEqual(await gateStep(undefined, call, validator), { kind: 'go', args: { command: 'ls' } });
});
