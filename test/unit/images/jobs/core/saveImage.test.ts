// Saving answers' images into the output folder over real HTTP (the local gateway's link host):
// names made here, the extension from the bytes, a sidecar, nothing overwritten, nothing left
// behind on failure, and the hostile-gateway cases of issue 40.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import type { LookupAddress } from 'node:dns';
import { join } from 'node:path';
import { HttpClient } from '../../../../../src/api/transport/http';
import { ImageClient } from '../../../../../src/api/images/images';
import { newImageId, promptSlug, saveImageOutput } from '../../../../../src/images/jobs/core/saveImage';
import { gatewayFailure, useGateway, useTempDir } from '../../../../support/helpers';
import { makePng } from '../../../../gateway/images';

const gw = useGateway();
const temp = useTempDir('gws-images-');
const tmp = () => temp.fresh();
const http = () => new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
const meta = (prompt: string) => ({ prompt, model: 'gpt-image-1', operation: 'generate' as const });

void describe('saving images', () => {
  void it('a b64_json answer is saved as <slug>-<id>.png with a sidecar naming how it was made', async () => {
    const dir = join(tmp(), 'images');
    const answer = await new ImageClient(http()).generate({
      model: 'gpt-image-1',
      prompt: 'A Lighthouse, at dawn!',
      size: '1024x1024',
    });
    const saved = await saveImageOutput(http(), dir, answer.images[0]!, {
      ...meta('A Lighthouse, at dawn!'),
      size: '1024x1024',
    });
    assert.match(saved.file, /[\\/]a-lighthouse-at-dawn-[0-9a-f]{8}\.png$/);
    assert.equal(saved.format, 'png');
    const side = JSON.parse(readFileSync(saved.sidecar, 'utf8')) as Record<string, unknown>;
    assert.equal(side.prompt, 'A Lighthouse, at dawn!');
    assert.equal(side.size, '1024x1024');
    assert.equal(side.source, 'b64_json');
    assert.deepEqual(readdirSync(dir).sort(), [saved.file, saved.sidecar].map((f) => f.split(/[\\/]/).pop()).sort());
  });

  void it('a url answer streams from the link into the folder; two saves of one prompt never share a file', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'keep-me.png'), "the user's own file");
    const answer = await new ImageClient(http()).generate({ model: 'doubao-seedream-4-0', prompt: 'harbour' });
    const a = await saveImageOutput(http(), dir, answer.images[0]!, meta('harbour'));
    const b = await saveImageOutput(
      http(),
      dir,
      { kind: 'b64', data: makePng(3, 3).toString('base64') },
      meta('harbour'),
    );
    assert.notEqual(a.file, b.file);
    assert.equal(readFileSync(join(dir, 'keep-me.png'), 'utf8'), "the user's own file");
    assert.equal(readFileSync(a.file).subarray(1, 4).toString(), 'PNG');
    assert.equal(gw.counts()['GET /files/images/:name'], 1);
  });

  void it('a file name from the gateway never chooses the path', async () => {
    const dir = tmp();
    const link = `${gw.url}/files/images/../../evil.sh`;
    const e = await gatewayFailure(saveImageOutput(http(), dir, { kind: 'url', url: link }, meta('x')));
    assert.equal(e.status, 404);
    const named = await saveImageOutput(
      http(),
      dir,
      { kind: 'b64', data: makePng(2, 2).toString('base64') },
      meta('../../etc/passwd'),
    );
    assert.match(named.file, /[\\/]etc-passwd-[0-9a-f]{8}\.png$/);
    assert.ok(named.file.startsWith(dir));
  });

  void it('a link that is no image, or past the limit, is refused and leaves nothing behind', async () => {
    const dir = tmp();
    const notImage = await new ImageClient(http()).generate({ model: 'doubao-seedream-4-0', prompt: 'x #notimage' });
    const e1 = await gatewayFailure(saveImageOutput(http(), dir, notImage.images[0]!, meta('x')));
    assert.match(e1.message, /is not an image/);
    const big = await new ImageClient(http()).generate({ model: 'doubao-seedream-4-0', prompt: 'x #big:60' });
    const e2 = await gatewayFailure(saveImageOutput(http(), dir, big.images[0]!, meta('x')));
    assert.match(e2.message, /larger than 50 MB/);
    const e3 = await gatewayFailure(
      saveImageOutput(http(), dir, { kind: 'b64', data: Buffer.from('#!/bin/sh').toString('base64') }, meta('x')),
    );
    assert.match(e3.message, /not an image/);
    assert.deepEqual(readdirSync(dir), []);
  });

  void it('a link to a private address is refused by the resolved-address rule (public gateway), before any connection', async () => {
    const dir = tmp();
    const calls: string[] = [];
    const resolve = (host: string): Promise<LookupAddress[]> => {
      calls.push(host);
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const publicGw = new HttpClient({ baseUrl: 'https://gw.example.com/v1', maxRetries: 0, resolve });
    const named = await gatewayFailure(
      saveImageOutput(
        publicGw,
        dir,
        { kind: 'url', url: `http://cdn.test:${new URL(gw.url).port}/files/images/x.png` },
        meta('x'),
      ),
    );
    assert.match(named.message, /cdn\.test.*127\.0\.0\.1.*your own network/);
    assert.deepEqual(calls, ['cdn.test']);
    const literal = await gatewayFailure(
      saveImageOutput(publicGw, dir, { kind: 'url', url: 'http://169.254.169.254/latest' }, meta('x')),
    );
    assert.match(literal.message, /your own network/);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(gw.counts()['GET /files/images/:name'] ?? 0, 0);
  });

  void it('slugs and ids', () => {
    assert.equal(promptSlug('  Café au lait — at 7 AM  '), 'cafe-au-lait-at-7-am');
    assert.equal(promptSlug('!!!'), 'image');
    assert.equal(promptSlug('a'.repeat(80)).length, 40);
    assert.match(newImageId(), /^[0-9a-f]{8}$/);
  });
});
