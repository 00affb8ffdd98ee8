// Scoped instructions files read from their frontmatter (src/chat/prompt/core/instructionsFile.ts):
// the documented fixtures with every field, comma lists with braces, the scope rules of each
// format, a frontmatter that cannot be read, and patterns that try to reach outside the workspace.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  leavesWorkspace,
  parseInstructions,
  scopePatterns,
  unmatchedPatterns,
} from '../../../../../src/chat/prompt/core/instructionsFile';
import { limitRules, RULE_LIMITS } from '../../../../../src/chat/prompt/core/systemPrompt';

const APPLY_TO = { field: 'applyTo', whenAbsent: 'manual' } as const;
const PATHS = { field: 'paths', whenAbsent: 'always' } as const;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

void test('a documented .instructions.md is read with every field: name, description, applyTo, excludeAgent', () => {
  const p = parseInstructions(fixture('python.instructions.md'), APPLY_TO);
  assert.equal(p.name, 'Python Standards');
  assert.equal(p.description, 'Coding conventions for Python files');
  assert.deepEqual(p.patterns, ['**/*.py']);
  assert.deepEqual(p.excludeAgent, ['code-review']);
  assert.deepEqual(p.problems, []);
  assert.equal(p.broken, false);
  assert.equal(p.always, false);
  assert.equal(p.manual, false);
  assert.ok(p.body.startsWith('# Python coding standards\n'), p.body);
  assert.ok(!p.body.includes('applyTo'), 'the frontmatter is not sent');
  assert.ok(p.globs[0]!.test('tools/build.py') && !p.globs[0]!.test('src/a.ts'));
});

void test('a comma list keeps the commas inside braces; `**` applies to every request; Claude rules use `paths`', () => {
  const ts = parseInstructions(fixture('typescript.instructions.md'), APPLY_TO);
  assert.deepEqual(ts.patterns, ['**/*.ts', '**/*.tsx']);
  assert.deepEqual(scopePatterns('**/*.{ts,tsx}, docs/**/*.md'), ['**/*.{ts,tsx}', 'docs/**/*.md']);
  assert.equal(parseInstructions(fixture('general-coding.instructions.md'), APPLY_TO).always, true);
  for (const every of ['*', '**/*'])
    assert.equal(parseInstructions(`---\napplyTo: '${every}'\n---\nx`, APPLY_TO).always, true);

  const api = parseInstructions(fixture('api-rules.md'), PATHS);
  assert.deepEqual(api.patterns, ['src/api/**/*.ts']);
  assert.equal(api.always, false);
  assert.ok(api.globs[0]!.test('src/api/users/get.ts') && !api.globs[0]!.test('src/web/a.ts'));
  // Claude: no `paths` means every file; VS Code: no `applyTo` means attach it by hand.
  assert.equal(parseInstructions('# plain rules\n', PATHS).always, true);
  const manual = parseInstructions('---\ndescription: by hand\n---\nbody', APPLY_TO);
  assert.equal(manual.manual, true);
  assert.equal(manual.always, false);
});

void test('a frontmatter that cannot be read gives its line, the file is off, and the parse does not throw', () => {
  const p = parseInstructions('---\napplyTo: "**/*.ts\nname: [unclosed\n---\nBody.\n', APPLY_TO);
  assert.equal(p.broken, true);
  assert.equal(p.always, false);
  assert.equal(p.manual, false);
  assert.equal(p.problems[0]!.code, 'frontmatter');
  assert.ok(typeof p.problems[0]!.line === 'number' && p.problems[0]!.line >= 2, JSON.stringify(p.problems));
  assert.match(p.problems[0]!.message, /line \d+/);

  const unclosed = parseInstructions('---\napplyTo: "**"\nno closing fence\n', APPLY_TO);
  assert.equal(unclosed.broken, true);
  assert.equal(unclosed.problems[0]!.line, 1);
});

void test('fields of the wrong type, unknown fields and unknown excludeAgent values are named with their line', () => {
  const p = parseInstructions('---\nname: [a, b]\napplyto: "**"\nexcludeAgent: chat\napplyTo: 3\n---\nx', APPLY_TO);
  const byCode = Object.fromEntries(p.problems.map((x) => [x.code, x]));
  assert.equal(byCode['notText']?.line, 2);
  assert.equal(byCode['unknownField']?.subject, 'applyto');
  assert.equal(byCode['unknownField']?.line, 3);
  assert.equal(byCode['excludeAgent']?.subject, 'chat');
  assert.equal(byCode['notGlobs']?.line, 5);
  assert.equal(p.name, undefined);
  assert.deepEqual(p.patterns, []);
});

void test('a hostile applyTo (../../**, an absolute path, a home path, a drive) is dropped with a problem and matches nothing', () => {
  const p = parseInstructions(
    "---\napplyTo: '../../**, /etc/**, ~/.ssh/*, C:\\\\Users\\\\*, src/../../x/**, src/**'\n---\nx",
    APPLY_TO,
  );
  assert.deepEqual(p.patterns, ['src/**']);
  assert.equal(p.problems.filter((x) => x.code === 'outside').length, 5, JSON.stringify(p.problems));
  assert.equal(p.globs.length, 1);
  for (const outside of ['../../etc/passwd', '/etc/passwd', 'etc/passwd'])
    assert.ok(!p.globs.some((g) => g.test(outside)), outside);
  assert.ok(leavesWorkspace('..\\secrets\\*') && !leavesWorkspace('src/**/..foo'));
});

void test('an invalid glob is reported and the others still apply', () => {
  const p = parseInstructions("---\napplyTo: 'src/{a,b, lib/**'\n---\nx", APPLY_TO);
  // The brace never closes, so the comma inside it does not split: one invalid pattern.
  assert.equal(p.problems[0]?.code, 'badGlob');
  const q = parseInstructions("---\napplyTo: ['src/{a', 'lib/**']\n---\nx", APPLY_TO);
  assert.deepEqual(q.patterns, ['lib/**']);
  assert.equal(q.problems[0]?.code, 'badGlob');
});

void test('a pattern that matches no workspace file is reported; `**` never is', () => {
  const p = parseInstructions("---\napplyTo: '**/*.py, src/**/*.ts, **'\n---\nx", APPLY_TO);
  const problems = unmatchedPatterns(p, 'applyTo', ['src/a.ts', 'README.md']);
  assert.deepEqual(
    problems.map((x) => [x.code, x.subject]),
    [['noMatch', '**/*.py']],
  );
  assert.match(problems[0]!.message, /matches no file/);
  assert.deepEqual(unmatchedPatterns(p, 'applyTo', ['x/y.py', 'src/b/c.ts']), []);
});

void test('a huge instructions file is cut to the per-file limit with a warning naming it', () => {
  const p = parseInstructions(`---\napplyTo: '**/*.ts'\n---\n${'y'.repeat(RULE_LIMITS.perFile * 2)}`, APPLY_TO);
  const id = '.github/instructions/huge.instructions.md';
  const { rules, warnings } = limitRules([{ id, path: `/ws/${id}`, kind: 'instructions', text: p.body }]);
  assert.equal(rules[0]!.text.length, RULE_LIMITS.perFile);
  assert.equal(rules[0]!.truncated, true);
  assert.deepEqual(warnings, [{ id, reason: 'file' }]);
});
