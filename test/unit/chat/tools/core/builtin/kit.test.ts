import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { def, int, isSecret, later, n, obj, s, str } from '../../../../../../src/chat/tools/core/builtin/kit';
import { kitFor, callCtx, tempWorkspace } from '../../../../../support/builtinTool';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
before(async () => {
  ws = await tempWorkspace({ 'a.txt': 'on disk\n', 'bin.dat': '', '.env': 'K=1' });
  await fs.writeFile(path.join(ws.root, 'bin.dat'), Buffer.from([0, 1, 2, 0, 3]));
});
after(() => ws.dispose());

void test('the schema helpers build the wire definition of a tool', () => {
  const d = def('read_file', 'Does x.', obj({ p: str('A path.'), k: int('How many.', 0) }, ['p']));
  assert.deepEqual(d.function.parameters, {
    type: 'object',
    properties: {
      p: { type: 'string', description: 'A path.' },
      k: { type: 'integer', minimum: 0, description: 'How many.' },
    },
    required: ['p'],
    additionalProperties: false,
  });
  assert.equal(d.function.name, 'read_file');
  assert.equal(s(3), '');
  assert.equal(s('a'), 'a');
  assert.equal(n('3'), undefined);
  assert.equal(n(3), 3);
});

void test('a later call does its work only when it runs', async () => {
  let ran = 0;
  const prepared = later(async () => `ran ${++ran}`);
  assert.equal(ran, 0);
  assert.deepEqual(await prepared.run(callCtx()), { content: 'ran 1' });
});

void test("the current text is an open editor's buffer first, else the file; a binary file is refused", async () => {
  const open = kitFor(ws.root, { editorText: (abs) => (abs.endsWith('a.txt') ? 'unsaved\n' : undefined) });
  const plain = kitFor(ws.root);
  assert.equal(await open.readCurrent(await open.resolve('a.txt')), 'unsaved\n');
  assert.equal(await plain.readCurrent(await plain.resolve('a.txt')), 'on disk\n');
  assert.equal(await plain.readCurrent(await plain.resolve('missing.txt')), undefined);
  await assert.rejects(plain.readCurrent(await plain.resolve('bin.dat')), /binary/);
});

void test('a secret file is known by its path; a change to it is made blind and asks every time', async () => {
  const kit = kitFor(ws.root);
  const env = await kit.resolve('.env');
  assert.equal(isSecret(env), true);
  assert.equal(isSecret(await kit.resolve('a.txt')), false);
  const call = kit.blindChangeCall(env, 'Change', (before) => `${before ?? ''}K2=2\n`);
  assert.equal(call.guard, 'secrets');
  assert.equal(call.show, undefined);
  await call.run(callCtx());
  assert.equal(await fs.readFile(path.join(ws.root, '.env'), 'utf8'), 'K=1K2=2\n');
});
