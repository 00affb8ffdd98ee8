// The one list of prompt sources (src/chat/prompt/core/promptSources.ts) agrees with the list that
// makes agent writes ask (src/shared/sensitiveFiles.ts): every place the chat reads rules from is a
// rules file there, in every folder and nested; and the watcher follows every workspace place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NESTED_NAMES, PROMPT_SOURCES, PROMPT_WATCH_GLOB } from '../../../../../src/chat/prompt/core/promptSources';
import { compileGlob } from '../../../../../src/chat/tools/core/glob';
import { writeKind } from '../../../../../src/shared/sensitiveFiles';

/** A file each source reads in a workspace folder, and one in a subfolder of each folder pattern. */
function samples(): string[] {
  return PROMPT_SOURCES.flatMap((s) => [
    ...s.files,
    ...s.folders.flatMap((f) => [
      `${f.folder}/a${f.suffix}`,
      ...(f.recursive ? [`${f.folder}/team/b${f.suffix}`] : []),
    ]),
    ...(s.nested ? [`packages/api/${s.nested}`, `a/b/c/${s.nested}`] : []),
  ]);
}

void test('every place the chat reads rules from makes an agent write ask as a rules file', () => {
  const all = samples();
  assert.ok(all.length >= 12, all.join('\n'));
  for (const p of all) assert.equal(writeKind(p), 'rules', p);
  // The case and Windows spellings of the same names too.
  for (const p of [
    'claude.md',
    'pkg/Claude.Local.md',
    '.GITHUB/Instructions/x.instructions.md',
    '.claude\\rules\\a.md',
  ])
    assert.equal(writeKind(p), 'rules', p);
});

void test('the watcher follows every workspace place of the list (not the nested ones, read per request)', () => {
  const watch = compileGlob(PROMPT_WATCH_GLOB);
  for (const s of PROMPT_SOURCES) {
    for (const f of s.files) assert.ok(watch.test(f), f);
    for (const f of s.folders) assert.ok(watch.test(`${f.folder}/a${f.suffix}`), f.folder);
  }
  assert.ok(!watch.test('src/index.ts'));
  assert.ok(!watch.test('.github/instructions/readme.txt'));
  // One level of braces: VS Code's globs do not nest them.
  assert.equal(PROMPT_WATCH_GLOB.slice(1, -1).includes('{'), false);
});

void test('the documented places are all there', () => {
  const files = PROMPT_SOURCES.flatMap((s) => s.files);
  for (const f of ['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md', '.github/copilot-instructions.md'])
    assert.ok(files.includes(f), f);
  const folders = PROMPT_SOURCES.flatMap((s) => s.folders.map((f) => f.folder));
  for (const f of ['.github/instructions', '.claude/rules', '.gatewaystudio/rules']) assert.ok(folders.includes(f), f);
  assert.deepEqual(NESTED_NAMES, ['AGENTS.md', 'CLAUDE.md']);
  const user = PROMPT_SOURCES.flatMap((s) => [
    ...(s.user?.files ?? []),
    ...(s.user?.folders ?? []).map((f) => f.folder),
  ]);
  assert.deepEqual(user.sort(), ['.claude/CLAUDE.md', '.claude/rules', '.copilot/instructions']);
  assert.equal(PROMPT_SOURCES.find((s) => s.user?.profilePrompts)?.scope?.field, 'applyTo');
});
