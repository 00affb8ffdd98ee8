import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { nameFromFile, parseAgentFile, MAX_INSTRUCTIONS } from '../../../../../src/chat/agents/core/agentFile';
import type { AgentSourceFile } from '../../../../../src/chat/agents/core/agent';

/*
 * Custom agent files as their documentation writes them (fixtures/: VS Code's custom-agents page
 * and its examples, Claude Code's sub-agents page), read with every documented field.
 */

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const vscode = (p: string): AgentSourceFile => ({ path: p, scope: 'workspace', format: 'vscode' });
const claude = (p: string): AgentSourceFile => ({ path: p, scope: 'workspace', format: 'claude' });
const messages = (a: { problems: readonly { message: string }[] }) => a.problems.map((p) => p.message);

void test('VS Code: every documented field of the planner example is read', () => {
  const a = parseAgentFile(
    fixture('planner.agent.md'),
    vscode('/ws/.github/agents/planner.agent.md'),
    'planner.agent.md',
  );
  assert.equal(a.id, 'Planner');
  assert.equal(a.name, 'Planner');
  assert.equal(a.builtin, false);
  assert.equal(a.description, 'Generate an implementation plan for new features or refactoring existing code.');
  assert.equal(a.argumentHint, 'Describe the feature to plan');
  // search/codebase and search/usages are our search tools; web/fetch has no tool here.
  assert.deepEqual(a.tools, { kind: 'names', names: ['search_text', 'find_files'] });
  assert.deepEqual(a.models, ['Claude Opus 4.5', 'GPT-5.2'], 'the ordered list, in order');
  assert.deepEqual(a.handoffs, [
    {
      label: 'Implement Plan',
      agent: 'agent',
      prompt: 'Implement the plan outlined above.',
      send: false,
      model: 'GPT-5.2 (copilot)',
    },
  ]);
  assert.equal(a.userInvocable, true);
  assert.deepEqual(a.extra, { target: 'vscode', agents: [], 'disable-model-invocation': true });
  assert.match(a.instructions, /^# Planning instructions\nYou are in planning mode\./);
  assert.deepEqual(messages(a), ['Tool "web/fetch" is not available in Gateway Studio; the agent runs without it.']);
  assert.equal(a.off, undefined);
});

void test('VS Code: tool sets map onto our tools, and user-invocable: false hides an agent from the picker', () => {
  const impl = parseAgentFile(fixture('implementer.agent.md'), vscode('/x'), 'implementer.agent.md');
  assert.deepEqual(impl.tools, { kind: 'names', names: ['edit_file', 'write_file'] });
  assert.equal(impl.userInvocable, true);
  const research = parseAgentFile(fixture('researcher.agent.md'), vscode('/x'), 'researcher.agent.md');
  assert.equal(research.userInvocable, false);
  assert.deepEqual(research.tools, { kind: 'names', names: ['search_text', 'find_files'] });
});

void test("Claude: a comma list of tools, model inherit (the conversation's), the body as instructions", () => {
  const a = parseAgentFile(
    fixture('code-reviewer.md'),
    claude('/ws/.claude/agents/code-reviewer.md'),
    'code-reviewer.md',
  );
  assert.equal(a.name, 'code-reviewer');
  assert.match(a.description, /^Expert code review specialist\./);
  assert.deepEqual(a.tools, { kind: 'names', names: ['read_file', 'search_text', 'find_files', 'run_command'] });
  assert.deepEqual(a.models, [], 'inherit: the conversation model');
  assert.match(a.instructions, /^You are a senior code reviewer/);
  assert.deepEqual(a.problems, []);
});

void test('Claude: disallowedTools takes tools away, the model alias is kept for matching, other fields are kept', () => {
  const a = parseAgentFile(fixture('debugger.md'), claude('/x'), 'debugger.md');
  assert.deepEqual(a.tools, {
    kind: 'names',
    names: ['read_file', 'edit_file', 'run_command', 'search_text', 'find_files'],
  });
  assert.deepEqual(a.models, ['sonnet']);
  assert.deepEqual(a.extra, { permissionMode: 'default', color: 'red' });
});

void test('a frontmatter that does not parse: off, with the line of the error, never "all tools"', () => {
  const a = parseAgentFile(fixture('broken.agent.md'), vscode('/x'), 'broken.agent.md');
  assert.ok(a.off, 'not usable');
  assert.ok(a.problems.length > 0);
  assert.equal(typeof a.problems[0]?.line, 'number');
  assert.ok((a.problems[0]?.line ?? 0) >= 2, 'a line inside the frontmatter');
  assert.equal(a.name, 'broken', 'named after its file');
});

void test('no frontmatter: the file name, every tool, the whole text as instructions', () => {
  const a = parseAgentFile('Be terse.\n', vscode('/x'), 'terse.agent.md');
  assert.equal(a.name, 'terse');
  assert.deepEqual(a.tools, { kind: 'all' });
  assert.equal(a.instructions, 'Be terse.');
});

void test('bad values get a clear line each; a tools value that is no list gives no tools rather than all', () => {
  const text = [
    '---',
    'tools: 5',
    'model: {a: 1}',
    'user-invocable: maybe',
    'handoffs:',
    '  - label: Go',
    '  - agent: x',
    'description: [1, 2]',
    '---',
    'x',
  ].join('\n');
  const a = parseAgentFile(text, claude('/x'), 'odd.md');
  assert.deepEqual(a.tools, { kind: 'names', names: [] });
  assert.deepEqual(a.models, []);
  assert.equal(a.userInvocable, true);
  assert.deepEqual(a.handoffs, []);
  assert.deepEqual(messages(a), [
    '"name" is required in the Claude format; the file name is used.',
    '"tools" should be a list of tool names; no tools are given.',
    '"model" should be a model name or a list of names.',
    'Handoff 1 needs a "label" and an "agent"; it is left out.',
    'Handoff 2 needs a "label" and an "agent"; it is left out.',
    '"user-invocable" should be true or false; it is ignored.',
    '"description" should be text; it is ignored.',
  ]);
});

void test('instructions past the limit are cut, with a line saying so', () => {
  const a = parseAgentFile(`---\nname: long\n---\n${'x'.repeat(MAX_INSTRUCTIONS + 10)}`, vscode('/x'), 'long.agent.md');
  assert.equal(a.instructions.length, MAX_INSTRUCTIONS);
  assert.match(messages(a)[0] ?? '', /cut to 30000 of 30010/);
});

void test('the deprecated infer: false hides the agent from the picker', () => {
  const a = parseAgentFile('---\ninfer: false\n---\nx', vscode('/x'), 'old.agent.md');
  assert.equal(a.userInvocable, false);
});

void test('file names: .agent.md and .md are dropped', () => {
  assert.equal(nameFromFile('plan-v2.agent.md'), 'plan-v2');
  assert.equal(nameFromFile('reviewer.md'), 'reviewer');
});
