// load_skill: nothing is read when the tool is offered or a call is prepared; the body comes
// only when the call runs, for a skill the model may load.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSkill, type SkillLibrary } from '../../../../../../src/chat/tools/core/builtin/loadSkill';
import { prepare, run } from '../../../../../support/builtinTool';

function library(): SkillLibrary & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    modelSkills: () => ['pdf'],
    load: (name, file) => {
      reads.push(file ? `${name}/${file}` : name);
      if (file === 'missing') return Promise.reject(new Error('The skill "pdf" has no file "missing".'));
      return Promise.resolve(file ? `file ${file}` : 'PDF BODY');
    },
  };
}

void test('the body is read only when the call runs', async () => {
  const lib = library();
  const tool = loadSkill(lib);
  assert.equal(tool.readOnly, true);
  assert.equal(tool.definition.function.name, 'load_skill');
  const prepared = await prepare(tool, { name: 'pdf' });
  assert.deepEqual(lib.reads, [], 'preparing (before approval) reads nothing');
  assert.ok(prepared.run);
  assert.equal(await run(tool, { name: 'pdf' }), 'PDF BODY');
  assert.equal(await run(tool, { name: 'pdf', file: 'fill.py' }), 'file fill.py');
  assert.deepEqual(lib.reads, ['pdf', 'pdf/fill.py']);
});

void test("an unknown skill is refused before anything is read; a failed read is the model's error", async () => {
  const lib = library();
  await assert.rejects(prepare(loadSkill(lib), { name: 'manual' }), /There is no skill "manual"/);
  await assert.rejects(run(loadSkill(lib), { name: 'pdf', file: 'missing' }), /has no file "missing"/);
});
