// Review: the download takes the spec's content route first, and the status's result link only as
// a fallback. Before this session the result link was the only way, so a relay whose content route
// is broken (5xx after retries) or refuses the id (400/405) but whose link works must still save the
// video; the link on another host still gets no key. Also: a task stored by the previous version
// (no saveDir) resumes its download and saves.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HttpClient } from '../../src/api/http';
import { VideoClient } from '../../src/api/video';
import { VideoJobManager } from '../../src/video/core/manager';
import { MemoryTaskStore, type VideoTaskRecord } from '../../src/video/core/record';
import { finishedVideo, useGateway, useTempDir } from './helpers';

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
const tmp = useTempDir('gs-review-video-');

const CONTENT_ROUTE = '/v1/videos/:id/content';
const FOREIGN_ROUTE = '/files/videos/:id.mp4';

const client = () => new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0, random: () => 0 }));
const downloads = () => gw.requests().filter((r) => r.route === CONTENT_ROUTE || r.route === FOREIGN_ROUTE).map((r) => `${r.host} ${r.route} ${r.auth}`);

function assertMp4(file: string): void {
  assert.equal(readFileSync(file).subarray(4, 8).toString('latin1'), 'ftyp', `${file} is an MP4`);
}

void describe('review: video download fallback and records of the previous version', () => {
  for (const [label, status] of [['500', 500], ['400', 400], ['405', 405]] as const) {
    void it(`a content route answering ${label} falls back to the result link on another host, without the key`, async () => {
      const c = client();
      const id = await finishedVideo(c, `route ${label}`);
      const dir = tmp.fresh(`r${label}`);
      gw.resetCounts();
      gw.fault({ match: { path: '/content' }, status, times: -1 });
      const d = await c.download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, join(dir, 'v.mp4'), { videoId: id });
      assert.ok(d.bytes > 0);
      assertMp4(d.file);
      assert.deepEqual(downloads(), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
    });
  }

  void it('an absolute result link on the video host itself is the fallback too, and (same origin) carries the key', async () => {
    const c = client();
    const id = await finishedVideo(c, 'same origin link');
    const dir = tmp.fresh('same');
    gw.resetCounts();
    gw.fault({ match: { path: '/content' }, contentJson: true, times: 1 });
    const d = await c.download(`${gw.videoUrl}/v1/videos/${id}/content?download=1`, join(dir, 'v.mp4'), { videoId: id });
    assertMp4(d.file);
    assert.deepEqual(downloads(), [`video ${CONTENT_ROUTE} valid`, `video ${CONTENT_ROUTE} valid`]);
  });

  void it('when a 500 route and the link both fail, the error names the route\'s status and the link\'s answer', async () => {
    const c = client();
    const id = await finishedVideo(c, 'both broken');
    const dir = tmp.fresh('both');
    gw.fault({ match: { path: '/content' }, status: 500, times: -1 });
    gw.fault({ match: { path: '/files/' }, status: 403, times: -1 });
    const err = await c.download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, join(dir, 'v.mp4'), { videoId: id }).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e as Error,
    );
    assert.match(err.message, /content route answered 500, and the result link on/);
    assert.deepEqual(readdirSync(dir), [], 'nothing is left in the folder');
  });

  void it('a downloading task stored by the previous version (no saveDir, an absolute link on another host) resumes and saves from the content route', async () => {
    const prompt = 'stored by the previous version';
    const id = await finishedVideo(client(), prompt);
    const dir = tmp.fresh('old');
    const now = Date.now();
    // Exactly the fields the previous version wrote: no saveDir.
    const old: VideoTaskRecord = {
      v: 1,
      key: 'old-task',
      state: 'downloading',
      request: { model: 'vendor-image-video', prompt, images: [] },
      warnings: [],
      videoId: id,
      polls: 3,
      transientErrors: 0,
      status: 'completed',
      outcome: 'completed',
      progress: 100,
      resultUrl: `${gw.url}/files/videos/${id}.mp4?sig=old`,
      createdAt: now - 60_000,
      updatedAt: now - 30_000,
    };
    const store = new MemoryTaskStore();
    await store.save(old);
    gw.resetCounts();
    const m = new VideoJobManager({ api: client(), store, pollIntervalMs: () => 10, pollLimit: () => 200, destination: () => Promise.resolve(dir) });
    const [done] = m.resumeUnfinished();
    assert.ok(done, 'the stored task resumes');
    assert.equal(await done, 'saved', JSON.stringify(m.get('old-task')?.error));
    const rec = m.get('old-task')!;
    assert.equal(rec.saveDir, dir);
    assert.ok(rec.file && existsSync(rec.file));
    assertMp4(rec.file);
    assert.deepEqual(downloads(), [`video ${CONTENT_ROUTE} valid`], 'the content route with the key; the old link is not needed');
  });
});
