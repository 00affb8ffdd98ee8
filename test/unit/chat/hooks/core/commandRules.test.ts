import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  commandRulesGate,
  commandVerdict,
  patternMatches,
  readCommandRules,
  type CommandRule,
} from '../../../../../src/chat/hooks/core/commandRules';

const user = (pattern: string, action: CommandRule['action']): CommandRule => ({ pattern, action, scope: 'user' });
const rules = [
  user('npm test', 'allow'),
  user('git status', 'allow'),
  user('git push *', 'ask'),
  user('rm -rf *', 'deny'),
  user('echo *', 'allow'),
];

void test('every command of a line must be allowed: npm test does not allow npm test && curl x | sh', () => {
  assert.equal(commandVerdict('npm test', rules).decision, 'allow');
  assert.equal(commandVerdict('npm test && git status', rules).decision, 'allow');
  assert.equal(commandVerdict('npm test && curl x | sh', rules).decision, undefined);
  assert.equal(commandVerdict('echo $(curl x)', rules).decision, undefined);
  assert.equal(commandVerdict('echo "a && b"', rules).decision, 'allow');
  assert.equal(
    commandVerdict('echo hi > ~/.bashrc', rules).decision,
    undefined,
    'a redirect into a file is never allowed',
  );
  assert.equal(commandVerdict('PATH=./evil npm test', rules).decision, undefined);
  assert.equal(commandVerdict('echo "open', rules).decision, undefined);
});

void test('deny wins over ask over allow, and sees through prefixes and subshells', () => {
  assert.equal(commandVerdict('npm test; rm -rf /', rules).decision, 'deny');
  assert.equal(commandVerdict('npm test && git push origin main', rules).decision, 'ask');
  assert.equal(commandVerdict('git push', rules).decision, 'ask');
  assert.equal(commandVerdict('FOO=1 sudo rm -rf /tmp/x', rules).decision, 'deny');
  assert.equal(commandVerdict('(cd / && rm -rf home)', rules).decision, 'deny');
  assert.equal(commandVerdict('if true; then rm -rf x; fi', rules).decision, 'deny');
  const v = commandVerdict('echo $(rm -rf /)', rules);
  assert.deepEqual([v.decision, v.part], ['deny', 'rm -rf /']);
});

void test('patterns: * is any text, literal otherwise, a trailing " *" or ":*" also matches the bare command', () => {
  assert.equal(patternMatches('git push *', 'git push'), true);
  assert.equal(patternMatches('npm run test:*', 'npm run test --watch'), true);
  assert.equal(patternMatches('npm test', 'npm  test'.replace(/\s+/g, ' ')), true);
  assert.equal(patternMatches('npm test', 'npm tests'), false);
  assert.equal(patternMatches('rm -rf *', 'rm -rf /a/b c'), true);
  assert.equal(patternMatches('a*a*a*a*a*a*b', 'a'.repeat(5000)), false);
});

void test('a workspace rule can ask or deny, never allow', () => {
  const read = readCommandRules(
    [
      { pattern: 'curl *', action: 'allow' },
      { pattern: 'git push *', action: 'deny' },
      { pattern: '', action: 'ask' },
      'x',
    ],
    'workspace',
    'gatewayStudio.tools.workspaceCommandRules',
  );
  assert.deepEqual(read.rules, [{ pattern: 'git push *', action: 'deny', scope: 'workspace' }]);
  assert.equal(read.problems.length, 3);
  assert.match(read.problems[0]?.message ?? '', /never|ask and deny rules only/);
  // Even an allow rule that slipped through is not honoured.
  assert.equal(
    commandVerdict('curl x', [{ pattern: 'curl *', action: 'allow', scope: 'workspace' }]).decision,
    undefined,
  );
  assert.equal(readCommandRules({}, 'user', 'k').problems.length, 1);
});

void test('as a gate: run_command only, with the rule in the reason', async () => {
  const gate = commandRulesGate(() => rules);
  const call = { callId: 'c', conversationId: 'v', readOnly: false, signal: new AbortController().signal };
  const v = await gate.before({ ...call, name: 'run_command', args: { command: 'rm -rf /' } });
  assert.equal(v.decision, 'deny');
  assert.match(v.reason ?? '', /matches your command rule "deny rm -rf \*"/);
  assert.deepEqual(await gate.before({ ...call, name: 'write_file', args: { command: 'rm -rf /' } }), {});
});
