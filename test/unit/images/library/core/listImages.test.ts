import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listImages, readSidecar } from '../../../../../src/images/library/core/listImages';
import { makePng } from '../../../../gateway/images';

async function folder(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'gws-images-'));
}

void test('lists the image files newest first with their sidecars, and nothing else', async () => {
  const dir = await folder();
  await fs.writeFile(path.join(dir, 'old-1111.png'), makePng(4, 4));
  await fs.utimes(path.join(dir, 'old-1111.png'), new Date(1000), new Date(1000));
  await fs.writeFile(path.join(dir, 'new-2222.png'), makePng(8, 8));
  await fs.writeFile(
    path.join(dir, 'new-2222.json'),
    JSON.stringify({ prompt: 'a red kite', model: 'gpt-image-1', operation: 'edit', size: 42, extra: 'x' }),
  );
  await fs.writeFile(path.join(dir, 'notes.txt'), 'not an image');
  await fs.mkdir(path.join(dir, 'sub.png'));
  const got = await listImages(dir);
  assert.deepEqual(
    got.map((i) => i.name),
    ['new-2222.png', 'old-1111.png'],
  );
  assert.equal(got[0]!.prompt, 'a red kite');
  assert.equal(got[0]!.operation, 'edit');
  assert.equal(got[0]!.size, undefined, 'a field of the wrong type is left out');
  assert.equal(got[1]!.prompt, undefined, 'no sidecar: no prompt');
  assert.equal(got[0]!.bytes, makePng(8, 8).length);
});

void test('a link in the folder is never listed (a committed images/x.png -> a secret)', async () => {
  const dir = await folder();
  const secret = path.join(await folder(), 'id_rsa');
  await fs.writeFile(secret, 'PRIVATE KEY');
  await fs.symlink(secret, path.join(dir, 'innocent.png'));
  await fs.writeFile(path.join(dir, 'real.png'), makePng(2, 2));
  assert.deepEqual(
    (await listImages(dir)).map((i) => i.name),
    ['real.png'],
  );
});

void test('a missing folder lists nothing; the count is bounded', async () => {
  assert.deepEqual(await listImages(path.join(os.tmpdir(), 'gws-no-such-folder-9f8e7d')), []);
  const dir = await folder();
  for (let i = 0; i < 5; i++) await fs.writeFile(path.join(dir, `i${i}.png`), makePng(1, 1));
  assert.equal((await listImages(dir, 3)).length, 3);
});

void test('a sidecar that is not a small JSON object is ignored', async () => {
  const dir = await folder();
  const img = path.join(dir, 'a.png');
  await fs.writeFile(path.join(dir, 'a.json'), '{ not json');
  assert.deepEqual(await readSidecar(img), {});
  await fs.writeFile(path.join(dir, 'a.json'), '["prompt"]');
  assert.deepEqual(await readSidecar(img), {});
  await fs.writeFile(path.join(dir, 'a.json'), JSON.stringify({ prompt: 'x'.repeat(70 * 1024) }));
  assert.deepEqual(await readSidecar(img), {}, 'over 64 KB');
});
