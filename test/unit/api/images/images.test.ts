// The image client against the local gateway over real HTTP: generations, multipart edits, the
// chat form, and each bad input of issue 40 (refusal, no image, n over the limit, mask size,
// non-images, size limit), with the account checked so nothing is billed twice or for a refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpClient } from '../../../../src/api/transport/http';
import { ImageClient } from '../../../../src/api/images/images';
import { imageFormat, imageSize } from '../../../../src/api/images/imageBytes';
import { gatewayFailure, useGateway } from '../../../support/helpers';
import { makePng } from '../../../gateway/images';
import type { MultipartPart } from '../../../gateway/multipart';
import { parseMultipart } from '../../../gateway/multipart';

const gw = useGateway();
const client = () =>
  new ImageClient(new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 2, random: () => 0 }));
const count = (route: string) => gw.counts()[`POST ${route}`] ?? 0;
const b64Png = (data: string) => imageFormat(Buffer.from(data, 'base64'));

void describe('image client against the local gateway', () => {
  void it('generates with gpt-image: b64_json answers, the fields sent as given, billed per image once', async () => {
    const before = gw.account().used;
    const r = await client().generate({
      model: 'gpt-image-1',
      prompt: 'a lighthouse at dawn',
      size: '1536x1024',
      quality: 'high',
      n: 2,
      background: 'opaque',
      output_format: 'png',
    });
    assert.equal(r.images.length, 2);
    const first = r.images[0]!;
    assert.equal(first.kind, 'b64');
    if (first.kind === 'b64') {
      assert.equal(b64Png(first.data), 'png');
      assert.deepEqual(imageSize(Buffer.from(first.data, 'base64')), { width: 1536, height: 1024 });
    }
    const sent = gw.requests().find((q) => q.route === '/v1/images/generations')!.body as Record<string, unknown>;
    assert.deepEqual(sent, {
      model: 'gpt-image-1',
      prompt: 'a lighthouse at dawn',
      size: '1536x1024',
      quality: 'high',
      n: 2,
      background: 'opaque',
      output_format: 'png',
    });
    assert.equal(count('/v1/images/generations'), 1);
    assert.ok(gw.account().used > before, 'the images were charged');
  });

  void it('a url answer (Seedream) comes back as a link on the gateway', async () => {
    const r = await client().generate({ model: 'doubao-seedream-4-0', prompt: 'p', size: '2048x2048' });
    assert.equal(r.images[0]!.kind, 'url');
    if (r.images[0]!.kind === 'url') assert.match(r.images[0]!.url, /\/files\/images\/img_[0-9a-f]+\.png\?sig=/);
  });

  void it("a content-policy refusal is said in the relay's words, sent once, and not billed", async () => {
    const before = gw.account().used;
    const e = await gatewayFailure(client().generate({ model: 'gpt-image-1', prompt: 'something #refuse' }));
    assert.equal(e.kind, 'bad_request');
    assert.match(e.message, /content policy: "Your request was rejected as a result of our safety system/);
    assert.equal(e.code, 'moderation_blocked');
    assert.equal(count('/v1/images/generations'), 1, 'never retried');
    assert.equal(gw.account().used, before);
  });

  void it('an answer with neither b64_json nor url is an error', async () => {
    const e = await gatewayFailure(client().generate({ model: 'gpt-image-1', prompt: 'x #noimage' }));
    assert.equal(e.kind, 'invalid_response');
    assert.match(e.message, /without any image \(no b64_json and no url\)/);
  });

  void it("n over the model's limit is the gateway's 400 naming n (the catalog check stops it before sending)", async () => {
    const e = await gatewayFailure(client().generate({ model: 'flux-kontext-pro', prompt: 'x', n: 3 }));
    assert.equal(e.kind, 'bad_request');
    assert.equal(e.param, 'n');
  });

  void it('edits as multipart: several images as image[], the mask as mask, billed once', async () => {
    const r = await client().edit(
      { model: 'gpt-image-1', prompt: 'make the background dark' },
      {
        images: [
          { name: 'room.png', bytes: makePng(40, 30) },
          { name: 'lamp.png', bytes: makePng(10, 10) },
        ],
        mask: { name: 'mask.png', bytes: makePng(40, 30) },
      },
    );
    const out = r.images[0]!;
    assert.equal(out.kind, 'b64');
    if (out.kind === 'b64') assert.deepEqual(imageSize(Buffer.from(out.data, 'base64')), { width: 40, height: 30 });
    const q = gw.requests().find((x) => x.route === '/v1/images/edits')!;
    assert.match(q.headers['content-type']!, /^multipart\/form-data; boundary=/);
    assert.equal(count('/v1/images/edits'), 1);
  });

  void it('the parts the gateway received are the files and fields given', async () => {
    await client().edit(
      { model: 'flux-kontext-pro', prompt: 'sepia' },
      { images: [{ name: 'one.png', bytes: makePng(8, 8) }] },
    );
    const q = gw.requests().find((x) => x.route === '/v1/images/edits')!;
    const parts: MultipartPart[] | undefined = parseMultipart(
      Buffer.from(q.body as string, 'latin1'),
      q.headers['content-type'],
    );
    assert.deepEqual(
      parts?.map((p) => [p.name, p.filename]),
      [
        ['model', undefined],
        ['prompt', undefined],
        ['image', 'one.png'],
      ],
    );
  });

  void it('a mask of another size, a non-image and a 60 MB image are refused before anything is sent', async () => {
    const mask = await gatewayFailure(
      client().edit(
        { model: 'gpt-image-1', prompt: 'p' },
        { images: [{ name: 'a.png', bytes: makePng(40, 30) }], mask: { name: 'm.png', bytes: makePng(30, 30) } },
      ),
    );
    assert.match(mask.message, /m\.png is 30x30 but the image a\.png is 40x30/);
    const text = await gatewayFailure(
      client().edit(
        { model: 'gpt-image-1', prompt: 'p' },
        { images: [{ name: 'notes.png', bytes: Buffer.from('just text, renamed') }] },
      ),
    );
    assert.match(text.message, /notes\.png is not an image/);
    const big = Buffer.concat([makePng(4, 4), Buffer.alloc(60 * 1024 * 1024)]);
    const large = await gatewayFailure(
      client().edit({ model: 'gpt-image-1', prompt: 'p' }, { images: [{ name: 'huge.png', bytes: big }] }),
    );
    assert.match(large.message, /huge\.png is larger than 50 MB/);
    assert.equal(count('/v1/images/edits'), 0);
  });

  void it('the gateway refuses a mask of another size and a non-image too (as a relay would)', async () => {
    const post = async (image: Buffer, mask?: Buffer) => {
      const form = new FormData();
      form.append('model', 'gpt-image-1');
      form.append('prompt', 'p');
      form.append('image', new Blob([image]), 'a.png');
      if (mask) form.append('mask', new Blob([mask]), 'm.png');
      const res = await fetch(`${gw.url}/v1/images/edits`, {
        method: 'POST',
        body: form,
        headers: { Authorization: `Bearer ${gw.keys.valid}` },
      });
      return { status: res.status, body: (await res.json()) as { error: { param: string; message: string } } };
    };
    const mask = await post(makePng(40, 30), makePng(30, 30));
    assert.equal(mask.status, 400);
    assert.equal(mask.body.error.param, 'mask');
    assert.match(mask.body.error.message, /same dimensions/);
    const text = await post(Buffer.from('plain text posing as a png'));
    assert.equal(text.status, 400);
    assert.equal(text.body.error.param, 'image');
  });

  void it('the chat form of a Gemini-class model: the image from message.images, or from Markdown', async () => {
    const a = await client().chatImage({ model: 'gemini-2.5-flash-image', prompt: 'a green square' });
    assert.equal(a.images[0]!.kind === 'b64' && b64Png(a.images[0]!.data), 'png');
    const sent = gw.requests().find((q) => q.route === '/v1/chat/completions')!.body as Record<string, unknown>;
    assert.deepEqual(sent.modalities, ['image', 'text']);
    const b = await client().chatImage({ model: 'gemini-2.5-flash-image', prompt: 'x #markdown' });
    assert.equal(b.images[0]!.kind, 'b64');
    const refused = await gatewayFailure(client().chatImage({ model: 'gemini-2.5-flash-image', prompt: 'x #refuse' }));
    assert.match(refused.message, /content policy: "I can't make that image/);
  });
});
