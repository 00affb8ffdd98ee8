// The places read and what the customizations list gets: workspace and user prompt files and
// skills, Restricted Mode (workspace files listed off, not read), duplicates, the menu's rows.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { modelSkills, readCatalog, slashItems } from '../../../../../src/chat/slash/core/catalog';

let ws: string;
let home: string;
let userPrompts: string;
async function write(root: string, rel: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), text);
}
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-cat-ws-')));
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-cat-home-')));
  userPrompts = path.join(home, 'Code/User/prompts');
  await write(
    ws,
    '.github/prompts/explain.prompt.md',
    "---\ndescription: Explain it\nargument-hint: '[file]'\n---\nExplain.\n",
  );
  await write(ws, '.github/prompts/broken.prompt.md', '---\ntools: [unclosed\n---\nStill runs.\n');
  await write(ws, '.github/prompts/notes.md', 'not a prompt file');
  await write(userPrompts, 'explain.prompt.md', 'A second /explain.\n');
  await write(userPrompts, 'mine.prompt.md', 'Mine.\n');
  await write(ws, '.claude/skills/review/SKILL.md', '---\nname: review\ndescription: Review a PR.\n---\nSteps.\n');
  await write(
    ws,
    '.agents/skills/bg/SKILL.md',
    '---\nname: bg\ndescription: Background.\nuser-invocable: false\n---\n',
  );
  await write(
    ws,
    '.github/skills/manual/SKILL.md',
    '---\nname: manual\ndescription: Deploy.\ndisable-model-invocation: true\n---\n',
  );
  await write(ws, '.github/skills/Bad Name/SKILL.md', '---\ndescription: d\n---\n');
  await write(home, '.claude/skills/explain/SKILL.md', '---\nname: explain\ndescription: Clashes.\n---\n');
  await write(home, '.copilot/skills/mine-too/SKILL.md', '---\nname: mine-too\ndescription: User skill.\n---\n');
  // A hostile repository's prompt file that is a link to a file outside the workspace.
  await write(home, 'secret.prompt.md', 'SECRET-OUTSIDE');
  await fs.symlink(path.join(home, 'secret.prompt.md'), path.join(ws, '.github/prompts/leak.prompt.md'));
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
  await fs.rm(home, { recursive: true, force: true });
});

void test('a trusted workspace: prompt files and skills of every documented place, each a source', async () => {
  const c = await readCatalog({ roots: [ws], trusted: true, home, userPrompts });
  assert.deepEqual(
    c.prompts.map((p) => `${p.scope}:${p.prompt.name}`),
    ['workspace:broken', 'workspace:explain', 'user:mine'],
  );
  assert.deepEqual(c.skills.map((s) => s.header.name).sort(), ['bg', 'manual', 'mine-too', 'review']);
  assert.deepEqual(
    slashItems(c).map((i) => `${i.kind}:${i.name}`),
    ['prompt:broken', 'prompt:explain', 'prompt:mine', 'skill:manual', 'skill:review', 'skill:mine-too'],
    "folders in documented order (.github, .claude, .agents, then the user's); bg is not user-invocable",
  );
  assert.equal(slashItems(c)[1]?.argumentHint, '[file]');
  assert.deepEqual(
    modelSkills(c)
      .map((s) => s.header.name)
      .sort(),
    ['bg', 'mine-too', 'review'],
    'manual is /manual only',
  );
  const byPath = (p: string) => c.sources.find((s) => s.path === p);
  const broken = byPath(path.join(ws, '.github/prompts/broken.prompt.md'));
  assert.equal(broken?.state, 'available');
  assert.ok((broken?.problems[0]?.line ?? 0) >= 2, 'the parse error has its line');
  assert.match(byPath(path.join(userPrompts, 'explain.prompt.md'))?.why ?? '', /already has the name \/explain/);
  assert.equal(byPath(path.join(ws, '.github/skills/Bad Name/SKILL.md'))?.state, 'off');
  const leak = byPath(path.join(ws, '.github/prompts/leak.prompt.md'));
  assert.equal(leak?.state, 'off');
  assert.match(leak?.why ?? '', /link leading outside the workspace/);
  assert.ok(!c.prompts.some((p) => p.prompt.body.includes('SECRET-OUTSIDE')), 'never read');
  assert.match(byPath(path.join(home, '.claude/skills/explain/SKILL.md'))?.why ?? '', /already has the name explain/);
});

void test('Restricted Mode: workspace prompt files and skills are listed off and not read; user ones work', async () => {
  const c = await readCatalog({ roots: [ws], trusted: false, home, userPrompts });
  assert.deepEqual(
    c.prompts.map((p) => p.prompt.name),
    ['explain', 'mine'],
    'the user-level ones',
  );
  assert.deepEqual(
    c.skills.map((s) => s.header.name),
    ['mine-too'],
    "the user's explain skill clashes with the user's /explain",
  );
  const off = c.sources.filter((s) => s.scope === 'workspace');
  assert.ok(off.length >= 6);
  assert.ok(off.every((s) => s.state === 'off' && /Restricted Mode/.test(s.why ?? '')));
});
