import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMatcher, matches } from '../../../../../src/chat/hooks/core/matcher';

void test("Claude Code's matcher rule: all, exact names, | lists, else an unanchored regular expression", () => {
  for (const m of [undefined, '', '*']) assert.equal(matches(m, ['run_command', 'Bash']), true);
  assert.equal(matches('Bash', ['run_command', 'Bash']), true);
  assert.equal(matches('bash', ['run_command', 'Bash']), false, 'case-sensitive');
  assert.equal(matches('Edit|Write', ['write_file', 'Write']), true);
  // An exact name is not a substring: Edit does not match MultiEdit.
  assert.equal(matches('Edit', ['MultiEdit']), false);
  assert.equal(matches('Notebook.*', ['NotebookEdit']), true);
  assert.equal(matches('mcp__memory__.*', ['mcp__memory__create']), true);
  assert.equal(matches('^Bash$', ['Bash']), true);
  assert.equal(matches('(', ['Bash']), false);
  assert.equal(checkMatcher('(').ok, false);
  assert.equal(checkMatcher('Edit|Write').ok, true);
});
