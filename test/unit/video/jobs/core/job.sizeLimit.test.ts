// A video past gatewayStudio.video.maxDownloadMegabytes: nothing is saved, the task keeps its
// record and id (a billed task is never lost), and once the limit is raised Resume saves it
// without creating the task again. Against the local gateway over HTTP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useGateway } from '../../../../support/helpers';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { VideoJobManager } from '../../../../../src/video/jobs/core/manager';
import type { VideoApi } from '../../../../../src/video/jobs/core/job';
import { MemoryTaskStore } from '../../../../../src/video/jobs/core/record';

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
let root: string;

void describe('video job: download size limit', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'gs-video-limit-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  void it('a video past the limit is not saved, the task and its id are kept, and Resume after raising the limit saves it', async () => {
    let maxDownloadBytes = 64;
    const client = () =>
      new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0, maxDownloadBytes }));
    // The manager keeps one api; this one reads the current limit on every call, as settings do.
    const api = new Proxy({} as VideoApi, {
      get: (_t, k) => {
        const c = client() as unknown as Record<string | symbol, unknown>;
        const v = c[k];
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(c) : v;
      },
    });
    const store = new MemoryTaskStore();
    const dir = join(root, 'out');
    const manager = new VideoJobManager({
      api,
      store,
      pollIntervalMs: () => 15,
      pollLimit: () => 100,
      destination: () => Promise.resolve(dir),
    });
    const { record, done } = await manager.submit({ request: { model: 'vendor-image-video', prompt: 'a large fox' } });
    assert.equal(await done, 'error');
    const r = manager.get(record.key)!;
    assert.equal(r.error?.kind, 'config');
    assert.match(r.error?.detail ?? '', /gatewayStudio\.video\.maxDownloadMegabytes.*not saved.*task is kept/);
    assert.ok(r.videoId, 'the task id was lost');
    assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], [], 'something was saved');
    const stored = (await store.load()).find((t) => t.key === record.key);
    assert.equal(stored?.videoId, r.videoId, 'the stored record lost the id');

    maxDownloadBytes = 1024 * 1024 * 1024;
    assert.equal(await manager.resume(record.key), 'saved');
    assert.equal(gw.counts()['POST /v1/videos/generations'], 1, 'the task was created again');
  });
});
