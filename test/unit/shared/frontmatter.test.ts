import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFrontmatter, stringList } from '../../../src/shared/frontmatter';

// The shape VS Code's prompt-file documentation shows: flow lists, quoted strings, a hint.
const PROMPT = [
  '---',
  "agent: 'agent'",
  "model: 'GPT-4o'",
  "tools: ['search/codebase', 'vscode/askQuestions']",
  "description: 'Generate a new React form component'",
  'argument-hint: formName=MyForm',
  '---',
  'Your goal is to generate a new React form component based on ${input:formName}.',
  '',
].join('\n');

void test('a documented prompt file: every key, the body and the line the body starts on', () => {
  const f = parseFrontmatter(PROMPT);
  assert.deepEqual(f.errors, []);
  assert.equal(f.attributes.agent, 'agent');
  assert.equal(f.attributes.model, 'GPT-4o');
  assert.deepEqual(f.attributes.tools, ['search/codebase', 'vscode/askQuestions']);
  assert.equal(f.attributes['argument-hint'], 'formName=MyForm');
  assert.equal(f.bodyLine, 8);
  assert.equal(f.body, 'Your goal is to generate a new React form component based on ${input:formName}.\n');
});

void test('block lists and nested maps (an agent file with handoffs) read as YAML does', () => {
  const text = [
    '---',
    'name: Planner',
    'tools:',
    '  - read',
    '  - search',
    'handoffs:',
    '  - label: Start implementing',
    '    agent: agent',
    '    prompt: Implement the plan above.',
    '    send: false',
    '---',
    'Plan only.',
  ].join('\r\n');
  const f = parseFrontmatter(text);
  assert.deepEqual(f.errors, []);
  assert.deepEqual(f.attributes.tools, ['read', 'search']);
  assert.deepEqual(f.attributes.handoffs, [
    { label: 'Start implementing', agent: 'agent', prompt: 'Implement the plan above.', send: false },
  ]);
  assert.equal(f.body, 'Plan only.');
  assert.equal(f.bodyLine, 12);
});

void test('no frontmatter: the whole text is the body, a BOM dropped', () => {
  const f = parseFrontmatter('\uFEFF# Rules\nUse tabs.\n');
  assert.deepEqual(f.attributes, {});
  assert.equal(f.body, '# Rules\nUse tabs.\n');
  assert.equal(f.bodyLine, 1);
  assert.deepEqual(f.errors, []);
});

void test('an empty frontmatter, and a --- later in the body that is not a fence', () => {
  const f = parseFrontmatter('---\n---\nText\n\n---\nmore');
  assert.deepEqual(f.attributes, {});
  assert.equal(f.body, 'Text\n\n---\nmore');
  assert.equal(f.bodyLine, 3);
});

void test('malformed YAML gives its line in the file and no attributes; the body still reads', () => {
  const f = parseFrontmatter('---\ndescription: ok\ntools: [a, b\nmodel: x\n---\nBody');
  assert.equal(f.errors.length > 0, true);
  assert.ok(f.errors[0]!.line >= 3 && f.errors[0]!.line <= 5, `line ${f.errors[0]!.line}`);
  assert.deepEqual(f.attributes, {});
  assert.equal(f.body, 'Body');
});

void test('a duplicate key, a frontmatter that is a list, and one never closed are errors', () => {
  assert.match(parseFrontmatter('---\na: 1\na: 2\n---\n').errors[0]!.message, /unique|duplicate/i);
  assert.deepEqual(parseFrontmatter('---\n- a\n- b\n---\nx').errors, [
    { line: 2, message: 'frontmatter is not a map of keys' },
  ]);
  const open = parseFrontmatter('---\na: 1\nbody without a fence');
  assert.deepEqual(open.errors, [{ line: 1, message: 'frontmatter has no closing ---' }]);
  assert.equal(open.body, '---\na: 1\nbody without a fence');
});

void test('an alias bomb is refused rather than expanded', () => {
  const bomb = ['---', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 0; i < 9; i++)
    bomb.push(
      `${'b'.repeat(i + 1)}: &${'b'.repeat(i + 1)} [${Array(10)
        .fill(i ? `*${'b'.repeat(i)}` : '*a')
        .join(', ')}]`,
    );
  bomb.push('---', 'x');
  const f = parseFrontmatter(bomb.join('\n'));
  assert.deepEqual(f.attributes, {});
  assert.ok(f.errors.length > 0);
});

void test('stringList reads a comma string, a flow list and a block list; other shapes are undefined', () => {
  assert.deepEqual(stringList('**/*.ts, src/**'), ['**/*.ts', 'src/**']);
  assert.deepEqual(stringList(['a', ' b ', 3, null, '']), ['a', 'b', '3']);
  assert.equal(stringList(undefined), undefined);
  assert.equal(stringList({ a: 1 }), undefined);
});
