// The catalog's video request shapes against the local gateway over real HTTP: each family's
// request (built from its documentation's example) is what the gateway, checking as a relay's
// adaptor does, accepts; a wrong field is its 400; Wan carries URLs and refuses a local file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpClient } from '../../../../src/api/transport/http';
import { VideoClient } from '../../../../src/api/video/video';
import { createFamilyVideo } from '../../../../src/api/catalog/familyCreate';
import { familyFor, shippedCatalog } from '../../../../src/api/catalog/catalog';
import type { CatalogVideoRequest } from '../../../../src/api/catalog/catalogRules';
import { videoWire } from '../../../../src/api/catalog/videoWire';
import { pollLoop } from '../../../../src/video/jobs/core/pollLoop';
import { gatewayFailure, useGateway } from '../../../support/helpers';
import { makePng } from '../../../gateway/images';

const gw = useGateway({ videoStepMs: 20, videoSteps: 2 });
const catalog = shippedCatalog();
const http = () => new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 });
const A = 'https://example.com/first.png';
const B = 'https://example.com/last.png';
const files: Record<string, Uint8Array> = { 'shots/cat.png': makePng(16, 9), 'notes.png': Buffer.from('not an image') };
const readLocal = async (p: string) => {
  const bytes = files[p];
  if (!bytes) throw new Error(`no such file ${p}`);
  return { name: p.split('/').pop()!, bytes };
};
const create = (r: CatalogVideoRequest) =>
  createFamilyVideo(http(), familyFor(catalog, r.model, 'video'), r, { readLocal });
const UNIFIED = 'POST /v1/video/generations';
const sent = () => gw.requests().find((q) => q.route === '/v1/video/generations')?.body as Record<string, unknown>;

/** One request per family, from its documentation's example. */
const EXAMPLES: CatalogVideoRequest[] = [
  {
    model: 'kling-v2-1-master',
    prompt: 'an astronaut stands up',
    firstFrame: A,
    lastFrame: B,
    mode: 'pro',
    seconds: 5,
    aspectRatio: '16:9',
  },
  {
    model: 'doubao-seedance-1-0-pro',
    prompt: 'a cat yawns',
    firstFrame: A,
    lastFrame: B,
    resolution: '1080p',
    aspectRatio: '16:9',
    seconds: 5,
    audio: true,
  },
  {
    model: 'veo-3.1-generate-preview',
    prompt: 'two people stare at a drawing',
    firstFrame: A,
    seconds: 8,
    aspectRatio: '16:9',
    resolution: '1080p',
    audio: true,
  },
  {
    model: 'wan2.5-i2v-preview',
    prompt: 'a black cat looks up',
    firstFrame: A,
    lastFrame: B,
    resolution: '720P',
    seconds: 5,
    audio: true,
  },
  {
    model: 'MiniMax-Hailuo-02',
    prompt: 'a man picks up a book',
    firstFrame: A,
    lastFrame: B,
    seconds: 6,
    resolution: '1080P',
  },
  {
    model: 'viduq1',
    prompt: 'the camera pushes in',
    firstFrame: A,
    lastFrame: B,
    seconds: 4,
    resolution: '720p',
    audio: true,
  },
];

void describe('catalog families against the local gateway', () => {
  void it("every family's documented request, shaped by the catalog, is accepted and completes", async () => {
    for (const r of EXAMPLES) {
      const { id } = await create(r);
      const done = await pollLoop(new VideoClient(http()), id, { intervalMs: 10, limit: 100 });
      assert.equal(done.kind, 'done', r.model);
    }
    assert.equal(gw.counts()[UNIFIED], EXAMPLES.length);
  });

  void it('Wan carries its frames as URLs under metadata', async () => {
    await create(EXAMPLES[3]!);
    assert.deepEqual(sent().metadata, { audio: true, first_frame_url: A, last_frame_url: B });
    assert.equal(sent().size, '720P');
  });

  void it('Wan refuses a local file with the reason, before anything is sent; the gateway refuses base64 as Wan does', async () => {
    const e = await gatewayFailure(create({ ...EXAMPLES[3]!, firstFrame: 'shots/cat.png' }));
    assert.equal(e.kind, 'validation');
    assert.match(e.message, /local image: Wan takes image URLs only \(public HTTPS links\); nothing is uploaded/);
    assert.equal(gw.counts()[UNIFIED] ?? 0, 0);
    const raw = videoWire(familyFor(catalog, 'wan2.5-i2v-preview'), EXAMPLES[3]!);
    assert.equal(raw.path, '/video/generations');
    if (raw.path !== '/video/generations') return;
    const md = raw.json.metadata as Record<string, unknown>;
    md.first_frame_url = `data:image/png;base64,${Buffer.from(files['shots/cat.png']!).toString('base64')}`;
    const relay = await gatewayFailure(http().request('POST', '/video/generations', { body: raw.json, retry: false }));
    assert.equal(relay.status, 400);
    assert.equal(relay.param, 'metadata.first_frame_url');
  });

  void it('a family that takes base64 gets a local image inlined (Kling)', async () => {
    await create({ model: 'kling-v1', prompt: 'p', firstFrame: 'shots/cat.png', seconds: 5 });
    assert.match(String(sent().image), /^data:image\/png;base64,iVBOR/);
    const e = await gatewayFailure(create({ model: 'kling-v1', prompt: 'p', firstFrame: 'notes.png' }));
    assert.match(e.message, /notes\.png is not an image/);
  });

  void it("a wrong field is the gateway's 400, naming it", async () => {
    const post = (body: unknown) =>
      gatewayFailure(http().request('POST', '/video/generations', { body, retry: false }));
    const tail = await post({ model: 'kling-v1', prompt: 'p', metadata: { last_frame_url: B } });
    assert.equal(tail.param, 'metadata.last_frame_url');
    assert.equal(tail.code, 'unknown_parameter');
    const veo = await post({ model: 'veo-3.0-generate-001', prompt: 'p', duration: 8 });
    assert.equal(veo.param, 'duration');
    const ratio = await post({ model: 'kling-v1', prompt: 'p', metadata: { aspect_ratio: '4:3' } });
    assert.equal(ratio.param, 'metadata.aspect_ratio');
    const seedance = await post({
      model: 'doubao-seedance-1-0-pro',
      prompt: 'p',
      metadata: { content: [{ type: 'image_url', image_url: { url: B }, role: 'last_frame' }] },
    });
    assert.match(seedance.message, /last_frame needs a first_frame/);
  });

  void it('/v1/videos: the local reference goes as the input_reference file part; a text file is refused first', async () => {
    const { id } = await create({
      model: 'sora-2',
      prompt: 'p',
      seconds: 4,
      size: '1280x720',
      references: ['shots/cat.png'],
    });
    assert.match(id, /^video_svc_v1_/);
    const q = gw.requests().find((x) => x.route === '/v1/videos')!;
    assert.match(q.headers['content-type']!, /^multipart\/form-data/);
    const e = await gatewayFailure(create({ model: 'sora-2', prompt: 'p', references: ['notes.png'] }));
    assert.match(e.message, /notes\.png is not an image/);
    assert.equal(gw.counts()['POST /v1/videos'], 1);
  });
});
