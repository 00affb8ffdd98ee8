// SKILL.md headers as the Agent Skills specification, VS Code (agent-skills.md) and Claude Code's
// skills page document them: every field read, the documented defaults, and bad input with lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSkillHeader } from '../../../../../src/chat/slash/core/skill';

const EVERY_FIELD = `---
name: webapp-testing
description: Guide for testing web applications using Playwright. Use this when asked to create or run browser-based tests.
license: Apache-2.0
compatibility: Requires Node.js 20 and a Chromium download
metadata:
  author: example-org
  version: "1.0"
allowed-tools: Read Grep Bash(npx playwright *)
argument-hint: '[test file] [options]'
user-invocable: true
disable-model-invocation: false
context: fork
agent: Explore
model: sonnet
effort: high
when_to_use: When a browser test fails.
paths:
  - "tests/**/*.spec.ts"
shell: bash
arguments: file options
hooks:
  PreToolUse:
    - matcher: Bash
      hooks: [{ type: command, command: "echo hi" }]
---
# Web Application Testing

Review the [test template](./test-template.js).
`;

void test('a SKILL.md with every documented field is read', () => {
  const h = parseSkillHeader(EVERY_FIELD, 'webapp-testing', true);
  assert.equal(h.name, 'webapp-testing');
  assert.equal(
    h.description,
    'Guide for testing web applications using Playwright. Use this when asked to create or run browser-based tests. When a browser test fails.',
  );
  assert.equal(h.license, 'Apache-2.0');
  assert.equal(h.compatibility, 'Requires Node.js 20 and a Chromium download');
  assert.deepEqual(h.metadata, { author: 'example-org', version: '1.0' });
  assert.deepEqual(h.allowedTools, ['Read', 'Grep', 'Bash(npx', 'playwright', '*)']);
  assert.equal(h.argumentHint, '[test file] [options]');
  assert.equal(h.userInvocable, true);
  assert.equal(h.disableModelInvocation, false);
  assert.equal(h.context, 'fork');
  assert.equal(h.agent, 'Explore');
  assert.equal(h.model, 'sonnet');
  assert.equal(h.effort, 'high');
  assert.equal(h.whenToUse, 'When a browser test fails.');
  assert.deepEqual(h.paths, ['tests/**/*.spec.ts']);
  assert.equal(h.shell, 'bash');
  assert.deepEqual(h.arguments, ['file', 'options']);
  assert.equal(h.hasHooks, true);
  assert.equal(h.unusable, undefined);
  // What is not honoured says so, each at its key's line.
  const lines = Object.fromEntries(h.problems.map((p) => [p.message.split(' ')[0], p.line]));
  assert.equal(lines['allowed-tools'], 9);
  assert.equal(lines['context:'], 13);
  assert.equal(lines['Hooks'], 22);
});

void test('the defaults: the name from the folder, invocable by both, the first paragraph for a missing description', () => {
  const h = parseSkillHeader('---\n---\n# Title\n\nDoes the thing.\n\nMore.\n', 'do-thing', true);
  assert.equal(h.name, 'do-thing');
  assert.equal(h.userInvocable, true);
  assert.equal(h.disableModelInvocation, false);
  assert.equal(h.description, 'Does the thing.');
  assert.ok(h.problems.some((p) => /No description/.test(p.message)));
});

void test('bad input: an invalid name makes the skill unusable; a name unlike its folder is noted; a cut header says so', () => {
  assert.match(
    parseSkillHeader('---\nname: My Skill\ndescription: d\n---\n', 'x', true).unusable ?? '',
    /not a skill name/,
  );
  assert.match(
    parseSkillHeader('---\nname: ns:skill\ndescription: d\n---\n', 'x', true).unusable ?? '',
    /not a skill name/,
  );
  const other = parseSkillHeader('---\nname: other\ndescription: d\n---\n', 'folder', true);
  assert.equal(other.unusable, undefined);
  assert.deepEqual(
    other.problems.map((p) => p.line),
    [2],
  );
  const cut = parseSkillHeader(`---\nname: big\ndescription: ${'x'.repeat(100)}`, 'big', false);
  assert.deepEqual(cut.problems[0], {
    line: 1,
    message: 'The frontmatter does not end in the first part of the file.',
  });
  const wrong = parseSkillHeader('---\ndescription: d\nuser-invocable: maybe\n---\n', 'w', true);
  assert.equal(wrong.userInvocable, true);
  assert.equal(wrong.problems.find((p) => /user-invocable/.test(p.message))?.line, 3);
});
