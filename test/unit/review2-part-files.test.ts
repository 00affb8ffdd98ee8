import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HttpClient } from '../../src/api/http';
import { partFileTarget, VideoClient, type VideoDownloadOptions } from '../../src/api/video';
import type { VideoApi } from '../../src/video/core/job';
import { VideoJobManager } from '../../src/video/core/manager';
import { PART_STALE_MARGIN_MS, partStaleAfterMs } from '../../src/video/core/partFiles';
import { fileStem, MemoryTaskStore, type VideoTaskRecord } from '../../src/video/core/record';
import { finishedVideo, gatewayFailure, useGateway, useTempDir } from './helpers';

/*
 * Review follow-up: a second window must not delete a live download's `.part` file. A file is
 * stale only when unmodified for longer than the stream idle timeout plus a margin, at download
 * start and at the start-up sweep alike; and a temporary file that vanished before the link step
 * is a retryable interrupted download, never a raw ENOENT. Real files, real timestamps, real HTTP.
 */

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
const tmp = useTempDir('gs-review2-part-');
let n = 0;

const client = () => new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 }));

/** Writes a file whose modification time lies `ageMs` in the past (through `utimes`). */
function put(dir: string, name: string, ageMs: number): string {
  const file = join(dir, name);
  writeFileSync(file, 'partial bytes');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(file, t, t);
  return file;
}

function record(over: Partial<VideoTaskRecord> & { videoId: string }): VideoTaskRecord {
  const now = Date.now();
  return {
    v: 1,
    key: `r2-${++n}`,
    state: 'saved',
    request: { model: 'vendor-image-video', prompt: 'harbour lights', images: [] },
    warnings: [],
    polls: 0,
    transientErrors: 0,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

function manager(store: MemoryTaskStore, dir: string, o: { idleTimeoutMs?: number; api?: VideoApi } = {}): VideoJobManager {
  return new VideoJobManager({
    api: o.api ?? client(),
    store,
    pollIntervalMs: () => 10,
    pollLimit: () => 200,
    destination: () => Promise.resolve(dir),
    ...(o.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: () => o.idleTimeoutMs! }),
  });
}

/** The `.part` files in `dir` that a download into `<stem>.mp4` made. */
function partsOf(dir: string, stem: string): string[] {
  return readdirSync(dir).filter((x) => partFileTarget(x) === `${stem}.mp4`).map((x) => join(dir, x));
}

const MINUTE = 60_000;

void describe('a .part file is stale only after the idle timeout plus a margin', () => {
  void it('the threshold is the idle timeout plus 30 s, and the 120 s default when none is usable', () => {
    assert.equal(PART_STALE_MARGIN_MS, 30_000);
    assert.equal(partStaleAfterMs(3600_000), 3630_000);
    assert.equal(partStaleAfterMs(5_000), 35_000);
    for (const bad of [undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(partStaleAfterMs(bad), 150_000, String(bad));
  });

  void it('the start-up sweep with a 1-hour idle timeout keeps a file silent for 30 minutes and removes one silent for 61 minutes', async () => {
    const dir = tmp.fresh();
    const id = 'video_svc_v1_00112233445566778899aabb';
    const stem = fileStem('harbour lights', id);
    const halfHour = put(dir, `.${stem}.mp4.0000aaaa.part`, 30 * MINUTE);
    const hourAndMore = put(dir, `.${stem}.mp4.0000bbbb.part`, 61 * MINUTE);
    const store = new MemoryTaskStore();
    await store.save(record({ videoId: id, saveDir: dir }));
    assert.deepEqual(await manager(store, dir, { idleTimeoutMs: 3600_000 }).startupCleanup, [hourAndMore]);
    assert.ok(existsSync(halfHour), 'a download may sit idle up to the idle timeout: 30 minutes is still live');
  });

  void it('the start-up sweep with the default idle timeout keeps a file silent for 2 minutes (not yet 150 s) and removes one silent for 3', async () => {
    const dir = tmp.fresh();
    const id = 'video_svc_v1_ffeeddccbbaa998877665544';
    const stem = fileStem('harbour lights', id);
    const twoMinutes = put(dir, `.${stem}.mp4.0000cccc.part`, 2 * MINUTE);
    const threeMinutes = put(dir, `.${stem}.mp4.0000dddd.part`, 3 * MINUTE);
    const store = new MemoryTaskStore();
    await store.save(record({ videoId: id, saveDir: dir }));
    assert.deepEqual(await manager(store, dir).startupCleanup, [threeMinutes]);
    assert.ok(existsSync(twoMinutes), 'the old fixed 2-minute cut-off would have removed this one');
  });

  void it('a download that starts with a 1-hour idle timeout keeps its task\'s file silent for 30 minutes and removes one silent for 61', async () => {
    const id = await finishedVideo(client(), 'harbour lights');
    const dir = tmp.fresh();
    const stem = fileStem('', id); // a tracked id has no prompt
    const halfHour = put(dir, `.${stem}.mp4.0000eeee.part`, 30 * MINUTE);
    const hourAndMore = put(dir, `.${stem}.mp4.0000ffff.part`, 61 * MINUTE);
    const m = manager(new MemoryTaskStore(), dir, { idleTimeoutMs: 3600_000 });
    await m.startupCleanup; // no records yet: nothing to sweep
    assert.ok(existsSync(hourAndMore), 'the start-up sweep knew no task of this id');
    const { done } = await m.track(id);
    assert.equal(await done, 'saved');
    assert.ok(!existsSync(hourAndMore), 'silent longer than the idle timeout plus margin: removed at download start');
    assert.ok(existsSync(halfHour), 'silent less than the idle timeout: kept at download start');
    assert.ok(existsSync(join(dir, `${stem}.mp4`)));
  });

  void it('a second window that downloads the same task leaves the first window\'s live .part alone; it goes when that download stops', async () => {
    const id = await finishedVideo(client(), 'two windows');
    const dir = tmp.fresh();
    const stem = fileStem('', id);
    // Window A: a download that received 1000 bytes and is waiting for more (an open connection).
    gw.fault({ match: { path: '/content' }, contentStallAfterBytes: 1000, times: 1 });
    const stopA = new AbortController();
    const a = client().download(id, join(dir, `${stem}.mp4`), { videoId: id, signal: stopA.signal });
    const aFailed = gatewayFailure(a);
    let live: string | undefined;
    for (const start = Date.now(); !live; ) {
      assert.ok(Date.now() - start < 10_000, 'window A should be stalled mid-download');
      live = partsOf(dir, stem).find((f) => statSync(f).size >= 1000);
      if (!live) await new Promise((r) => setTimeout(r, 20));
    }

    // Window B starts (start-up sweep), then downloads the same task.
    const store = new MemoryTaskStore();
    const m = manager(store, dir);
    await m.startupCleanup;
    const { record: rec, done } = await m.track(id);
    assert.equal(await done, 'saved');
    assert.ok(existsSync(live), 'window A\'s live .part file survived window B\'s sweep and download');
    assert.equal(statSync(live).size, 1000);
    assert.equal(m.get(rec.key)?.file, join(dir, `${stem}.mp4`));

    // A restarted window B sweeps again: still live, still kept.
    assert.deepEqual(await manager(store, dir).startupCleanup, []);
    assert.ok(existsSync(live));

    stopA.abort();
    assert.equal((await aFailed).kind, 'aborted');
    assert.deepEqual(partsOf(dir, stem), [], 'window A removed its own file when it stopped');
    assert.deepEqual(readdirSync(dir).sort(), [`${stem}.json`, `${stem}.mp4`]);
  });
});

void describe('a temporary file removed mid-download is an interrupted download to resume', () => {
  void it('the client reports it as a retryable truncated download that says to resume the task, not ENOENT, and saves nothing', async () => {
    const id = await finishedVideo(client(), 'vanishing part');
    const dir = tmp.fresh();
    const dest = join(dir, 'vanishing.mp4');
    let deleted = 0;
    const err = await gatewayFailure(
      client().download(id, dest, {
        videoId: id,
        onProgress: () => {
          for (const f of partsOf(dir, 'vanishing')) {
            unlinkSync(f);
            deleted++;
          }
        },
      }),
    );
    assert.ok(deleted >= 1, 'the .part file existed and was deleted during the download');
    assert.equal(err.kind, 'truncated');
    assert.equal(err.retryable, true);
    assert.match(err.message, /interrupted/);
    assert.match(err.message, /temporary file \.vanishing\.mp4\.[0-9a-f]{8}\.part was removed/);
    assert.match(err.hint, /Resume the task/);
    assert.doesNotMatch(`${err.message} ${err.hint}`, /ENOENT|no such file/i);
    assert.equal((err.cause as { code?: string } | undefined)?.code, 'ENOENT', 'the raw cause is kept for the log');
    assert.deepEqual(readdirSync(dir), [], 'no video and no temporary file');
  });

  void it('the job downloads again once when the file vanished, and saves the video', async () => {
    const id = await finishedVideo(client(), 'vanishing once');
    const dir = tmp.fresh();
    const stem = fileStem('', id);
    let attempts = 0;
    const c = client();
    const api: VideoApi = {
      create: (req, signal) => c.create(req, signal),
      poll: (vid, o) => c.poll(vid, o),
      download: (src, dest, o?: VideoDownloadOptions) => {
        const first = ++attempts === 1;
        return c.download(src, dest, { ...o, onProgress: () => first && partsOf(dir, stem).forEach((f) => unlinkSync(f)) });
      },
    };
    const m = manager(new MemoryTaskStore(), dir, { api });
    const { record: rec, done } = await m.track(id);
    assert.equal(await done, 'saved');
    assert.equal(attempts, 2);
    assert.equal(m.get(rec.key)?.state, 'saved');
    assert.deepEqual(readdirSync(dir).sort(), [`${stem}.json`, `${stem}.mp4`]);
  });

  void it('when the file vanishes on every attempt the task ends in error with words to resume it, and can be resumed', async () => {
    const id = await finishedVideo(client(), 'vanishing always');
    const dir = tmp.fresh();
    const stem = fileStem('', id);
    let sabotage = true;
    const c = client();
    const api: VideoApi = {
      create: (req, signal) => c.create(req, signal),
      poll: (vid, o) => c.poll(vid, o),
      download: (src, dest, o?: VideoDownloadOptions) =>
        c.download(src, dest, { ...o, onProgress: () => sabotage && partsOf(dir, stem).forEach((f) => unlinkSync(f)) }),
    };
    const m = manager(new MemoryTaskStore(), dir, { api });
    const { record: rec, done } = await m.track(id);
    assert.equal(await done, 'error');
    const failed = m.get(rec.key);
    assert.equal(failed?.error?.kind, 'truncated');
    assert.match(failed?.error?.detail ?? '', /was removed .* before the video could be saved/);
    assert.match(failed?.error?.detail ?? '', /Resume the task/);
    assert.doesNotMatch(JSON.stringify(failed?.error), /ENOENT/);
    assert.deepEqual(readdirSync(dir), [], 'nothing was saved');

    sabotage = false;
    assert.equal(await m.resume(rec.key), 'saved');
    assert.deepEqual(readdirSync(dir).sort(), [`${stem}.json`, `${stem}.mp4`]);
  });
});
