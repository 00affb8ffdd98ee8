// What the wizard, the agent tools and the jobs send for a model of a catalog family: the spec's
// request mapped to the family's slots and fields, sent to the local gateway (which checks each
// family's fields as a relay's adaptor does) and polled to the end; the wizard's choices per
// family; a URL-only family refuses an inlined local image with the reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpClient } from '../../../../src/api/transport/http';
import { VideoClient } from '../../../../src/api/video/video';
import { familyFor, shippedCatalog, type CatalogFamily } from '../../../../src/api/catalog/catalog';
import { createFamilyVideo } from '../../../../src/api/catalog/familyCreate';
import { familyVideoRequest, familyVideoRules } from '../../../../src/api/catalog/familyVideo';
import { pollLoop } from '../../../../src/video/jobs/core/pollLoop';
import { useGateway } from '../../../support/helpers';
import { makePng } from '../../../gateway/images';

const gw = useGateway({ videoStepMs: 20, videoSteps: 2 });
const catalog = shippedCatalog();
const fam = (model: string): CatalogFamily => familyFor(catalog, model, 'video')!;
const A = 'https://example.com/first.png';
const B = 'https://example.com/last.png';
const PNG = `data:image/png;base64,${Buffer.from(makePng(16, 9)).toString('base64')}`;
const spec = { prompt: 'a cat yawns', seconds: 5, aspect_ratio: '16:9', resolution: '720p' };

void describe('the spec request in a family shape', () => {
  void it('one image is the first frame, two are first and last where the family takes both', () => {
    const kling = fam('kling-v2-1-master');
    assert.deepEqual(familyVideoRequest(kling, { model: 'kling-v2-1-master', ...spec, image_urls: [A] }), {
      model: 'kling-v2-1-master',
      prompt: 'a cat yawns',
      seconds: 5,
      aspectRatio: '16:9',
      firstFrame: A,
    });
    const two = familyVideoRequest(kling, { model: 'kling-v2-1-master', ...spec, image_urls: [A, B] });
    assert.equal(two.firstFrame, A);
    assert.equal(two.lastFrame, B);
    assert.equal(two.resolution, undefined, 'Kling takes no resolution: the default is left out');
    // Seedance takes references: more than one image are references, not frames.
    const seed = familyVideoRequest(fam('doubao-seedance-1-0-pro'), {
      model: 'doubao-seedance-1-0-pro',
      ...spec,
      image_urls: [A, B, A],
    });
    assert.deepEqual(seed.references, [A, B, A]);
    assert.equal(seed.firstFrame, undefined);
    // Wan lists 720P: the spec's 720p is that resolution; it has no aspect ratios.
    const wan = familyVideoRequest(fam('wan2.2-i2v-plus'), { model: 'wan2.2-i2v-plus', ...spec });
    assert.equal(wan.resolution, '720P');
    assert.equal(wan.aspectRatio, undefined);
  });

  void it("the wizard's choices: each family's durations, ratios, resolutions, images and whether links only", () => {
    const veo = familyVideoRules(fam('veo-3.1-generate-preview'), 'veo-3.1-generate-preview');
    assert.deepEqual(veo.suggestedSeconds, [4, 6, 8]);
    assert.deepEqual(veo.aspectRatios, ['16:9', '9:16']);
    assert.deepEqual(veo.resolutions, ['720p', '1080p']);
    assert.equal(veo.maxImages, 1);
    assert.equal(veo.urlOnly, false);
    const wan = familyVideoRules(fam('wan2.2-i2v-plus'), 'wan2.2-i2v-plus');
    assert.equal(wan.urlOnly, true);
    assert.deepEqual(wan.aspectRatios, []);
    assert.equal(wan.maxImages, 2, 'first and last frame');
    assert.equal(familyVideoRules(fam('doubao-seedance-1-0-pro'), 'x').maxImages, 4);
    assert.equal(familyVideoRules(fam('sora-2'), 'sora-2').maxImages, 1);
  });
});

void describe('sent for a family against the local gateway', () => {
  const http = () => new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 });

  void it('Kling with two inlined images: first frame and image_tail, accepted, polled to completed', async () => {
    const f = fam('kling-v2-1-master');
    const req = familyVideoRequest(f, { model: 'kling-v2-1-master', ...spec, image_urls: [PNG, PNG] });
    const { id } = await createFamilyVideo(http(), f, req);
    const body = [...gw.requests()].reverse().find((q) => q.route === '/v1/video/generations')?.body as {
      image?: string;
      metadata?: { image_tail?: string; aspect_ratio?: string };
    };
    assert.equal(body.image, PNG);
    assert.equal(body.metadata?.image_tail, PNG);
    assert.equal(body.metadata?.aspect_ratio, '16:9');
    const done = await pollLoop(new VideoClient(http()), id, { intervalMs: 10, limit: 100 });
    assert.equal(done.kind === 'done' && done.status.outcome, 'completed');
  });

  void it('Wan: an inlined local image is refused before anything is sent, HTTPS links go', async () => {
    const f = fam('wan2.2-i2v-plus');
    const before = gw.requests().length;
    await assert.rejects(
      createFamilyVideo(http(), f, familyVideoRequest(f, { model: 'wan2.2-i2v-plus', ...spec, image_urls: [PNG] })),
      /base64 data: Wan takes image URLs only/,
    );
    assert.equal(gw.requests().length, before, 'nothing sent, nothing billed');
    const { id } = await createFamilyVideo(
      http(),
      f,
      familyVideoRequest(f, { model: 'wan2.2-i2v-plus', ...spec, image_urls: [A] }),
    );
    assert.ok(id);
  });
});
