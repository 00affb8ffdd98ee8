// Prompt files as VS Code documents them (docs/agent-customization/prompt-files.md): every
// frontmatter field, the older `mode`, the name from the file name, and bad input with its line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePromptFile, promptNameFromFile } from '../../../../../src/chat/slash/core/promptFile';

// The documentation's own example, with `name` and `argument-hint` added (both documented fields).
const DOCUMENTED = `---
name: create-react-form
description: 'Generate a new React form component'
argument-hint: 'formName=MyForm fields=...'
agent: 'agent'
model: GPT-4o
tools: ['search/codebase', 'vscode/askQuestions']
---
Your goal is to generate a new React form component.

* Use form design system components: [design-system/Form.md](../docs/design-system/Form.md)
`;

void test('a documented prompt file is read with every field', () => {
  const p = parsePromptFile(DOCUMENTED, '/ws/.github/prompts/form.prompt.md');
  assert.equal(p.name, 'create-react-form');
  assert.equal(p.description, 'Generate a new React form component');
  assert.equal(p.argumentHint, 'formName=MyForm fields=...');
  assert.equal(p.agent, 'agent');
  assert.equal(p.model, 'GPT-4o');
  assert.deepEqual(p.tools, ['search/codebase', 'vscode/askQuestions']);
  assert.equal(p.bodyLine, 9);
  assert.match(p.body, /^Your goal is/);
  assert.deepEqual(p.problems, []);
});

void test('the older `mode` is the agent; without `name` the file name is the command; no frontmatter is all body', () => {
  const p = parsePromptFile("---\nmode: 'ask'\nmodel: Claude Sonnet 4\n---\nReview it.\n", 'security-review.prompt.md');
  assert.equal(p.agent, 'ask');
  assert.equal(p.name, 'security-review');
  assert.equal(p.model, 'Claude Sonnet 4');
  const plain = parsePromptFile('Just do it.', 'C:\\ws\\.github\\prompts\\do.prompt.md');
  assert.equal(plain.name, 'do');
  assert.equal(plain.body, 'Just do it.');
  assert.equal(promptNameFromFile('a/b/explain.PROMPT.md'), 'explain');
});

void test('bad input: a YAML error keeps the body and names its line; wrong types name their key line', () => {
  const broken = parsePromptFile('---\ndescription: [unclosed\n---\nBody stays.\n', 'x.prompt.md');
  assert.equal(broken.body, 'Body stays.\n');
  assert.ok(broken.problems.length > 0);
  assert.ok(
    broken.problems.every((p) => typeof p.line === 'number' && p.line >= 2),
    JSON.stringify(broken.problems),
  );
  const typed = parsePromptFile('---\ndescription: ok\ntools: {a: 1}\nname: "has space"\n---\nB', 'y.prompt.md');
  assert.equal(typed.tools, undefined);
  assert.equal(typed.name, 'y', 'an invalid name falls back to the file name');
  assert.deepEqual(
    typed.problems.map((p) => p.line),
    [4, 3],
  );
});
