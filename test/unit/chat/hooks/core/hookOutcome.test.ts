import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HookCommand, HookEventName } from '../../../../../src/chat/hooks/core/hookFile';
import { hookOutcome, strictest } from '../../../../../src/chat/hooks/core/hookOutcome';
import type { HookProcessResult } from '../../../../../src/chat/hooks/core/hookProcess';

const cmd = (event: HookEventName, over: Partial<HookCommand> = {}): HookCommand => ({
  event,
  command: 'check',
  timeoutSec: 30,
  onTimeout: 'continue',
  ...over,
});
const ran = (over: Partial<HookProcessResult>): HookProcessResult => ({
  exitCode: 0,
  stdout: '',
  stderr: '',
  totalBytes: 0,
  truncated: false,
  timedOut: false,
  aborted: false,
  durationMs: 12,
  ...over,
});

void test('exit 2 blocks with stderr as the reason; exit 1 only warns', () => {
  const o = hookOutcome(cmd('PreToolUse'), ran({ exitCode: 2, stderr: 'no rm here\n' }));
  assert.equal(o.decision, 'deny');
  assert.equal(o.reason, 'no rm here');
  assert.match(o.note, /PreToolUse hook `check`: exit 2/);
  const one = hookOutcome(cmd('PreToolUse'), ran({ exitCode: 1, stderr: 'oops' }));
  assert.equal(one.decision, undefined);
  assert.match(one.warning ?? '', /exit 1/);
});

void test('PreToolUse JSON: permissionDecision, its reason, updatedInput and context; the older approve/block', () => {
  const out = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'check this',
      updatedInput: { command: 'npm test -- --ci' },
      additionalContext: 'CI mode',
    },
    systemMessage: 'heads up',
  });
  const o = hookOutcome(cmd('PreToolUse'), ran({ stdout: out }));
  assert.deepEqual(
    [o.decision, o.reason, o.updatedInput, o.context, o.warning],
    ['ask', 'check this', { command: 'npm test -- --ci' }, 'CI mode', 'heads up'],
  );
  assert.equal(hookOutcome(cmd('PreToolUse'), ran({ stdout: '{"decision":"approve"}' })).decision, 'allow');
  assert.equal(hookOutcome(cmd('PreToolUse'), ran({ stdout: '{"decision":"block","reason":"r"}' })).reason, 'r');
  assert.equal(
    hookOutcome(cmd('PreToolUse'), ran({ stdout: '{"continue":false,"stopReason":"halt"}' })).decision,
    'deny',
  );
});

void test('a timeout goes on by default and blocks with onTimeout: block', () => {
  const goes = hookOutcome(cmd('PreToolUse'), ran({ exitCode: null, timedOut: true }));
  assert.equal(goes.decision, undefined);
  assert.match(goes.warning ?? '', /30 s timeout; the call went on \(onTimeout: continue\)/);
  const blocks = hookOutcome(cmd('PreToolUse', { onTimeout: 'block' }), ran({ exitCode: null, timedOut: true }));
  assert.equal(blocks.decision, 'deny');
});

void test('UserPromptSubmit and SessionStart take plain stdout as context; Stop blocks stopping', () => {
  assert.equal(hookOutcome(cmd('UserPromptSubmit'), ran({ stdout: 'branch main\n' })).context, 'branch main');
  assert.equal(hookOutcome(cmd('PostToolUse'), ran({ stdout: 'ignored' })).context, undefined);
  const stop = hookOutcome(cmd('Stop'), ran({ stdout: '{"decision":"block","reason":"run the tests"}' }));
  assert.deepEqual([stop.decision, stop.reason], ['deny', 'run the tests']);
  // VS Code's doc puts Stop's decision inside hookSpecificOutput.
  const vs = hookOutcome(cmd('Stop'), ran({ stdout: '{"hookSpecificOutput":{"decision":"block","reason":"again"}}' }));
  assert.equal(vs.reason, 'again');
  assert.equal(hookOutcome(cmd('Stop'), ran({ stdout: '{"continue":false}' })).decision, undefined);
});

void test('the strictest decision wins: deny over ask over allow', () => {
  const a = hookOutcome(cmd('PreToolUse'), ran({ stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}' }));
  const k = hookOutcome(cmd('PreToolUse'), ran({ stdout: '{"hookSpecificOutput":{"permissionDecision":"ask"}}' }));
  const d = hookOutcome(cmd('PreToolUse'), ran({ exitCode: 2 }));
  assert.equal(strictest([a, k])?.decision, 'ask');
  assert.equal(strictest([a, d, k])?.decision, 'deny');
  assert.equal(strictest([]), undefined);
});
