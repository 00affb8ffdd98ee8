import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shippedCatalog } from '../../../../../src/api/catalog/catalog';
import { editFamilies, editModelProblem, readEditInputs } from '../../../../../src/images/edit/core/editChoices';
import { makePng } from '../../../../gateway/images';

const catalog = shippedCatalog();

void test('the families that edit are the catalog image families with edits on the images route', () => {
  const ids = editFamilies(catalog).map((f) => f.id);
  assert.ok(ids.includes('gpt-image'));
  assert.ok(ids.includes('flux'));
  assert.ok(!ids.includes('seedream'), 'Seedream lists no edits');
  assert.ok(!ids.includes('gemini-image'), 'the chat form is not a multipart edit');
});

void test('a model that cannot make the edit is named with the reason', () => {
  assert.equal(editModelProblem(catalog, 'gpt-image-1', true), undefined);
  assert.equal(editModelProblem(catalog, 'flux-kontext-pro', false), undefined);
  assert.match(editModelProblem(catalog, 'flux-kontext-pro', true) ?? '', /takes no mask.*gpt-image/);
  assert.match(editModelProblem(catalog, 'seedream-4-0', false) ?? '', /does not edit images/);
  assert.match(editModelProblem(catalog, 'gemini-2.5-flash-image', false) ?? '', /does not edit images/);
  assert.equal(editModelProblem(catalog, 'some-relay-model', true), undefined, 'unknown: the gateway decides');
});

async function files(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'gws-edit-'));
}

void test('a mask of another size is refused naming both sizes; the same size passes', async () => {
  const dir = await files();
  const src = path.join(dir, 'photo.png');
  await fs.writeFile(src, makePng(64, 32));
  await fs.writeFile(path.join(dir, 'small.png'), makePng(32, 32));
  await fs.writeFile(path.join(dir, 'mask.png'), makePng(64, 32));
  await assert.rejects(readEditInputs(src, path.join(dir, 'small.png')), (e: Error) => {
    assert.match(e.message, /small\.png is 32x32 but the image photo\.png is 64x32/);
    return true;
  });
  const ok = await readEditInputs(src, path.join(dir, 'mask.png'));
  assert.equal(ok.images[0]!.name, 'photo.png');
  assert.equal(ok.mask?.name, 'mask.png');
  assert.equal((await readEditInputs(src, undefined)).mask, undefined);
});

void test('a source that is no image, or too large, is refused before anything is sent', async () => {
  const dir = await files();
  const fake = path.join(dir, 'fake.png');
  await fs.writeFile(fake, 'just text');
  await assert.rejects(readEditInputs(fake, undefined), /fake\.png/);
  const big = path.join(dir, 'big.png');
  await fs.writeFile(big, Buffer.concat([makePng(2, 2), Buffer.alloc(2048)]));
  await assert.rejects(readEditInputs(big, undefined, 1024), /big\.png/);
  await assert.rejects(readEditInputs(dir, undefined), /is not a file/);
});
