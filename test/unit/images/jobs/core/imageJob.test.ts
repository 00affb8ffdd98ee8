// One image request from send to saved files, over real HTTP against the local gateway: sent once,
// billed once, a failed save saved again from the same answer (no second request, no second
// charge), an edit's inputs checked by their bytes before anything leaves.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { familyFor, shippedCatalog } from '../../../../../src/api/catalog/catalog';
import { ImageClient } from '../../../../../src/api/images/images';
import { HttpClient } from '../../../../../src/api/transport/http';
import { editImage, generateImages } from '../../../../../src/images/jobs/core/imageJob';
import { gatewayFailure, useGateway, useTempDir } from '../../../../support/helpers';
import { makePng } from '../../../../gateway/images';

const gw = useGateway();
const temp = useTempDir('gws-imagejob-');
const client = () => new ImageClient(new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }));
const family = (model: string) => familyFor(shippedCatalog(), model, 'image');

function billedLog() {
  const calls: Array<[string, number]> = [];
  return { calls, billed: (id: string, n: number) => void calls.push([id, n]) };
}

void describe('an image job', () => {
  void it('generates n images with one request, tells of the answer once, saves each with a sidecar', async () => {
    const folder = join(temp.fresh(), 'images');
    const b = billedLog();
    const r = await generateImages({
      client: client(),
      family: family('gpt-image-1'),
      folder,
      request: { model: 'gpt-image-1', prompt: 'two foxes', n: 2, size: '1024x1024', quality: 'low' },
      billed: b.billed,
    });
    assert.equal(r.saved.length, 2);
    assert.deepEqual(r.failed, []);
    assert.equal(gw.counts()['POST /v1/images/generations'], 1);
    assert.deepEqual(b.calls, [[r.jobId, 2]]);
    assert.match(r.jobId, /^img-[0-9a-f]{12}$/);
    const body = gw.requests().find((q) => q.route === '/v1/images/generations')?.body as Record<string, unknown>;
    assert.deepEqual(body, { model: 'gpt-image-1', prompt: 'two foxes', n: 2, size: '1024x1024', quality: 'low' });
    const side = JSON.parse(readFileSync(r.saved[0]!.sidecar, 'utf8')) as Record<string, unknown>;
    assert.equal(side.quality, 'low');
    for (const s of r.saved) assert.ok(s.file.startsWith(folder));
  });

  void it('a save that failed is saved again from the same answer: no second request, no second charge', async () => {
    const dir = temp.fresh();
    const folder = join(dir, 'images');
    // A file where the folder should be: every save fails until it is gone.
    writeFileSync(folder, 'in the way');
    const b = billedLog();
    const first = await generateImages({
      client: client(),
      family: family('gpt-image-1'),
      folder,
      request: { model: 'gpt-image-1', prompt: 'a kite' },
      billed: b.billed,
    });
    assert.equal(first.saved.length, 0);
    assert.equal(first.failed.length, 1);
    rmSync(folder);
    const again = await first.retry();
    assert.equal(again.saved.length, 1);
    assert.equal(again.jobId, first.jobId);
    assert.deepEqual(again.failed, []);
    assert.equal(gw.counts()['POST /v1/images/generations'], 1, 'the request went once');
    assert.equal(b.calls.length, 1, 'the answer was counted once');
    assert.equal(readdirSync(folder).filter((f) => f.endsWith('.png')).length, 1);
  });

  void it('a refusal is the relay’s words, nothing billed or saved', async () => {
    const folder = temp.fresh();
    const b = billedLog();
    const e = await gatewayFailure(
      generateImages({
        client: client(),
        family: family('gpt-image-1'),
        folder,
        request: { model: 'gpt-image-1', prompt: 'x #refuse' },
        billed: b.billed,
      }),
    );
    assert.match(e.message, /content policy/);
    assert.deepEqual(b.calls, []);
    assert.deepEqual(readdirSync(folder), []);
  });

  void it('edits an image with a mask of its size as multipart; the result is a new file, the input untouched', async () => {
    const folder = join(temp.fresh(), 'images');
    const input = makePng(32, 24);
    const r = await editImage({
      client: client(),
      family: family('gpt-image-1'),
      folder,
      request: { model: 'gpt-image-1', prompt: 'make the background dark' },
      inputs: {
        images: [{ name: 'logo.png', bytes: input }],
        mask: { name: 'mask.png', bytes: makePng(32, 24, [0, 0, 0]) },
        labels: ['art/logo.png', 'art/mask.png'],
      },
    });
    assert.equal(r.saved.length, 1);
    assert.equal(gw.counts()['POST /v1/images/edits'], 1);
    const side = JSON.parse(readFileSync(r.saved[0]!.sidecar, 'utf8')) as Record<string, unknown>;
    assert.equal(side.operation, 'edit');
    assert.deepEqual(side.inputs, ['art/logo.png', 'art/mask.png']);
  });

  void it('a mask of another size, or an input that is no image, is refused before anything is sent', async () => {
    const folder = temp.fresh();
    const job = {
      client: client(),
      family: family('gpt-image-1'),
      folder,
      request: { model: 'gpt-image-1', prompt: 'x' },
    };
    const e1 = await gatewayFailure(
      editImage({
        ...job,
        inputs: {
          images: [{ name: 'a.png', bytes: makePng(32, 24) }],
          mask: { name: 'm.png', bytes: makePng(16, 16) },
          labels: ['a.png'],
        },
      }),
    );
    assert.match(e1.message, /mask m\.png is 16x16 but the image a\.png is 32x24/);
    const e2 = await gatewayFailure(
      editImage({
        ...job,
        inputs: { images: [{ name: 'notes.png', bytes: Buffer.from('hello') }], labels: ['notes.png'] },
      }),
    );
    assert.match(e2.message, /notes\.png is not an image/);
    assert.equal(gw.counts()['POST /v1/images/edits'] ?? 0, 0);
    assert.deepEqual(readdirSync(folder), []);
  });

  void it('a chat-form model (Gemini image) goes to chat completions, its inputs as data URLs', async () => {
    const folder = temp.fresh();
    const r = await editImage({
      client: client(),
      family: family('gemini-2.5-flash-image'),
      folder,
      request: { model: 'gemini-2.5-flash-image', prompt: 'darker' },
      inputs: { images: [{ name: 'a.png', bytes: makePng(8, 8) }], labels: ['a.png'] },
    });
    assert.equal(r.saved.length, 1);
    const body = gw.requests().find((q) => q.route === '/v1/chat/completions')?.body as {
      messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }>;
    };
    assert.match(body.messages[0]!.content[1]!.image_url!.url, /^data:image\/png;base64,/);
  });
});
