// Skills on disk: listing reads only each SKILL.md's head (a folder of 10,000 files is not walked),
// the body is read only on invoke and cut, a workspace skill linked out of the workspace is refused.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import {
  BODY_CHARS,
  listSkills,
  loadSkillBody,
  readSkillFile,
  type FoundSkill,
} from '../../../../../src/chat/slash/core/skillFiles';

let ws: string;
let outside: string;
const skills = () => path.join(ws, '.github/skills');
before(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-skills-')));
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gs-skills-out-')));
  const write = async (rel: string, text: string | Buffer) => {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  };
  await write(
    '.github/skills/pdf/SKILL.md',
    '---\nname: pdf\ndescription: Fill PDF forms.\n---\nUse [the script](./fill.py).\n',
  );
  await write('.github/skills/pdf/fill.py', 'print("fill")\n');
  await write('.github/skills/pdf/bin.dat', Buffer.from([0, 1, 2, 0]));
  await write(
    '.github/skills/huge/SKILL.md',
    `---\nname: huge\ndescription: Big.\n---\n${'x'.repeat(10 * 1024 * 1024)}`,
  );
  // A skill whose folder links out of the workspace (to a skill-shaped folder elsewhere).
  await fs.mkdir(path.join(outside, 'evil'), { recursive: true });
  await fs.writeFile(path.join(outside, 'evil/SKILL.md'), '---\nname: evil\ndescription: Steals.\n---\nsecret body\n');
  await fs.writeFile(path.join(outside, 'id_rsa'), 'PRIVATE');
  await fs.symlink(path.join(outside, 'evil'), path.join(skills(), 'evil'));
  await fs.symlink(path.join(outside, 'id_rsa'), path.join(skills(), 'pdf/key'));
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

async function found(): Promise<{ skills: FoundSkill[]; refused: { file: string; why: string }[] }> {
  return listSkills([{ dir: skills(), scope: 'workspace' }], [ws]);
}

void test('listing reads the heads; a skill linked out of the workspace is refused, never read', async () => {
  const r = await found();
  assert.deepEqual(r.skills.map((s) => s.header.name).sort(), ['huge', 'pdf']);
  assert.equal(r.refused.length, 1);
  assert.match(r.refused[0]!.why, /outside the workspace/);
  assert.equal(r.skills.find((s) => s.header.name === 'pdf')?.header.description, 'Fill PDF forms.');
});

void test('a skill folder with 10,000 files is listed without reading them: only its SKILL.md is opened', async () => {
  const many = path.join(skills(), 'many');
  await fs.mkdir(path.join(many, 'data'), { recursive: true });
  await fs.writeFile(path.join(many, 'SKILL.md'), '---\nname: many\ndescription: Many files.\n---\nbody\n');
  await Promise.all(Array.from({ length: 10_000 }, (_, i) => fs.writeFile(path.join(many, 'data', `f${i}.txt`), 'x')));
  // The module reads through the same `fs.promises` object: every directory listed and file opened is seen.
  const listed: string[] = [];
  const opened: string[] = [];
  const { readdir, open } = fs;
  fs.readdir = ((p: string, o: unknown) => (listed.push(String(p)), readdir(p, o as never))) as typeof fs.readdir;
  fs.open = ((p: string, ...rest: unknown[]) => (
    opened.push(String(p)),
    open(p, ...(rest as [never]))
  )) as typeof fs.open;
  try {
    const r = await found();
    assert.ok(r.skills.some((s) => s.header.name === 'many'));
  } finally {
    fs.readdir = readdir;
    fs.open = open;
    await fs.rm(many, { recursive: true, force: true });
  }
  assert.deepEqual(listed, [skills()], 'only the skills folder is listed');
  assert.ok(opened.includes(path.join(many, 'SKILL.md')));
  assert.ok(
    opened.every((f) => path.basename(f) === 'SKILL.md'),
    opened.join(', '),
  );
});

void test('the body is read on invoke, a 10 MB SKILL.md is cut, and its files are read inside its folder only', async () => {
  const r = await found();
  const pdf = r.skills.find((s) => s.header.name === 'pdf')!;
  const huge = r.skills.find((s) => s.header.name === 'huge')!;
  assert.match(await loadSkillBody(pdf, [ws]), /^Use \[the script\]\(\.\/fill\.py\)\./);
  const big = await loadSkillBody(huge, [ws]);
  assert.ok(big.length < BODY_CHARS + 500, String(big.length));
  assert.match(big, /were cut: the first 32000 characters of a 10485\d+-byte file/);
  assert.equal(await readSkillFile(pdf, 'fill.py', [ws]), 'print("fill")\n');
  await assert.rejects(readSkillFile(pdf, '../huge/SKILL.md', [ws]), /outside the skill's folder/);
  await assert.rejects(readSkillFile(pdf, '/etc/passwd', [ws]), /relative to the skill folder/);
  await assert.rejects(readSkillFile(pdf, 'key', [ws]), /outside the skill's folder/, 'a link out of the folder');
  await assert.rejects(readSkillFile(pdf, 'bin.dat', [ws]), /binary/);
  await assert.rejects(readSkillFile(pdf, 'none.txt', [ws]), /has no file/);
});
