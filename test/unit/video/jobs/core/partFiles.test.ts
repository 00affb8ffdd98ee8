import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync, unlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { partFileTarget } from '../../../../../src/files/partFileNames';
import type { VideoDownloadOptions } from '../../../../../src/api/video/videoDownload';
import { VideoJobManager } from '../../../../../src/video/jobs/core/manager';
import {
  partStaleAfterMs,
  removeStalePartFiles,
  PART_STALE_MARGIN_MS,
} from '../../../../../src/video/jobs/core/partFiles';
import { fileStem, MemoryTaskStore, type VideoTaskRecord } from '../../../../../src/video/jobs/core/record';
import { errorHint } from '../../../../../src/contracts/errorWords';
import { finishedVideo, useGateway, useTempDir, gatewayFailure } from '../../../../support/helpers';
import type { VideoApi } from '../../../../../src/video/jobs/core/job';

/*
 * Hidden `.part` files that a download leaves when the window dies mid-transfer: removed for a task
 * when its download starts and at manager start-up, in both cases only when nothing wrote to them
 * for longer than the stream idle timeout plus a margin (another window may be downloading). Real
 * files in a temporary folder throughout.
 */

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
const tmp = useTempDir('gs-video-part-');
let n = 0;

/** Writes a file and backdates it by `ageMs`. */
function put(dir: string, name: string, ageMs = 0, body = 'partial bytes'): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  if (ageMs > 0) {
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(file, t, t);
  }
  return file;
}

const OLD = partStaleAfterMs(undefined) + 60_000;
const client = () => new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0 }));

function record(over: Partial<VideoTaskRecord> & { videoId: string }): VideoTaskRecord {
  const now = Date.now();
  return {
    v: 1,
    key: `k-${++n}`,
    state: 'saved',
    request: { model: 'vendor-image-video', prompt: 'a lighthouse at dusk', images: [] },
    warnings: [],
    polls: 0,
    transientErrors: 0,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

function manager(store: MemoryTaskStore, dir: string): VideoJobManager {
  return new VideoJobManager({
    api: client(),
    store,
    pollIntervalMs: () => 10,
    pollLimit: () => 200,
    destination: () => Promise.resolve(dir),
  });
}

void describe('leftover .part files of video downloads', () => {
  void it("only this task's temporary files are removed, and only those idle for the given time", async () => {
    const dir = tmp.fresh();
    const stem = 'lighthouse-ab12cd34';
    const oldOwn = put(dir, `.${stem}.mp4.0123abcd.part`, OLD);
    const oldOwnNumbered = put(dir, `.${stem}-2.mp4.89abcdef.part`, OLD);
    const freshOwn = put(dir, `.${stem}.mp4.fedcba98.part`);
    const keep = [
      put(dir, `${stem}.mp4`, OLD, "the user's video"),
      put(dir, `.lighthouse-ffffffff.mp4.0123abcd.part`, OLD), // another task
      put(dir, `.x${stem}.mp4.0123abcd.part`, OLD), // a longer stem that contains this one
      put(dir, `.${stem}.mp4.0123ABCD.part`, OLD), // not a name this code makes
      put(dir, `.${stem}.json.0123abcd.part`, OLD),
      put(dir, `.${stem}.mp4.0123abcd.part.bak`, OLD),
      put(dir, `${stem}.mp4.0123abcd.part`, OLD), // not hidden
      put(dir, 'notes.part', OLD),
    ];
    mkdirSync(join(dir, `.${stem}.mp4.deadbeef.part`)); // a folder with the right name is not a file we made

    const removedIdle = await removeStalePartFiles(dir, stem, { olderThanMs: partStaleAfterMs(undefined) });
    assert.deepEqual(removedIdle.sort(), [oldOwn, oldOwnNumbered].sort());
    assert.ok(existsSync(freshOwn), 'a file written to just now may be a download running in another window');

    const removedAll = await removeStalePartFiles(dir, stem, { olderThanMs: 0 });
    assert.deepEqual(removedAll, [freshOwn]);
    for (const f of keep) assert.ok(existsSync(f), `${f} is not ours and stays`);
    assert.ok(statSync(join(dir, `.${stem}.mp4.deadbeef.part`)).isDirectory());
    assert.deepEqual(
      await removeStalePartFiles(join(dir, 'missing'), stem, { olderThanMs: 0 }),
      [],
      'a missing folder is no error',
    );
  });

  void it('at manager start-up, idle leftovers of known tasks go; fresh ones and other files stay', async () => {
    const dir = tmp.fresh();
    const id = 'video_svc_v1_0123456789abcdef01234567';
    const r = record({ videoId: id, file: join(dir, 'a-lighthouse-at-dusk-01234567.mp4') }); // an older record: no saveDir, but a saved file
    const stem = fileStem(r.request.prompt, id);
    assert.equal(stem, 'a-lighthouse-at-dusk-01234567');
    const errored = record({
      videoId: 'video_svc_v1_fedcba9876543210fedcba98',
      state: 'error',
      saveDir: dir,
      request: { model: 'm', prompt: '', images: [] },
    });
    const erroredStem = fileStem('', errored.videoId!);
    const old1 = put(dir, `.${stem}.mp4.00000001.part`, OLD);
    const old2 = put(dir, `.${erroredStem}.mp4.00000002.part`, OLD);
    const fresh = put(dir, `.${stem}.mp4.00000003.part`);
    const stranger = put(dir, '.someone-elses-video-99999999.mp4.00000004.part', OLD);
    const store = new MemoryTaskStore();
    await store.save(r);
    await store.save(errored);
    const m = manager(store, dir);
    assert.deepEqual((await m.startupCleanup).sort(), [old1, old2].sort());
    assert.ok(existsSync(fresh));
    assert.ok(existsSync(stranger), 'a file no task of this workspace names is left alone');
  });

  // Was "of any age": a fresh file may be another window's live download of the same task.
  void it("a download that starts removes its task's stale leftovers, keeps a fresh one, and no other task's", async () => {
    const prompt = 'waves on rocks';
    const id = await finishedVideo(client(), prompt);
    const dir = tmp.fresh();
    const stem = fileStem('', id); // a tracked id has no prompt
    const ownFresh = put(dir, `.${stem}.mp4.0000000a.part`);
    const ownStale = put(dir, `.${stem}.mp4.0000000b.part`, OLD);
    const others = [
      put(dir, '.other-task-aaaaaaaa.mp4.0000000c.part'),
      put(dir, '.other-task-aaaaaaaa.mp4.0000000d.part', OLD),
    ];
    const m = manager(new MemoryTaskStore(), dir);
    await m.startupCleanup;
    const { record: rec, done } = await m.track(id);
    assert.equal(await done, 'saved');
    assert.ok(!existsSync(ownStale), 'the stale leftover was removed');
    assert.ok(existsSync(ownFresh), "a file written to just now may be another window's live download");
    for (const f of others) assert.ok(existsSync(f), `${f} stays`);
    assert.equal(m.get(rec.key)?.saveDir, dir, 'the folder is recorded for the next start-up sweep');
  });

  // Was "the next start removes it": a file written moments ago may be a live download, so it now
  // waits until it has been silent longer than the idle timeout, and a later start removes it.
  void it('a window killed mid-download leaves a .part file; the next start saves the video, and a start after the idle timeout removes the file', async () => {
    const prompt = 'killed mid download';
    const id = await finishedVideo(client(), prompt);
    const dir = tmp.fresh();
    const stem = fileStem(prompt, id);
    gw.fault({ match: { path: '/content' }, contentStallAfterBytes: 1000, times: 1 });

    // Another process downloads the way the job does, gets 1000 bytes, and is killed (SIGKILL:
    // no finally block runs, as when VS Code dies).
    const src = (f: string) => JSON.stringify(pathToFileURL(resolve(__dirname, '../../../../../src/api', f)).href);
    const script = `(async () => {
      // tsx hands a CommonJS-compiled module's exports over as the default export.
      const load = async (u) => { const m = await import(u); return m.default ?? m; };
      const { HttpClient } = await load(${src('transport/http.ts')});
      const { VideoClient } = await load(${src('video/video.ts')});
      const c = new VideoClient(new HttpClient({ baseUrl: ${JSON.stringify(gw.videoUrl)}, apiKey: ${JSON.stringify(gw.keys.valid)}, maxRetries: 0 }));
      await c.download(${JSON.stringify(id)}, ${JSON.stringify(join(dir, `${stem}.mp4`))}, { videoId: ${JSON.stringify(id)} });
    })();`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    let gone = false;
    const exited = new Promise<void>((r) =>
      child.on('exit', () => {
        gone = true;
        r();
      }),
    );
    const start = Date.now();
    let part: string | undefined;
    while (!part) {
      assert.ok(!gone && Date.now() - start < 20_000, `the child should be stalled mid-download: ${stderr}`);
      const name = readdirSync(dir).find((x) => partFileTarget(x) === `${stem}.mp4`);
      if (name && statSync(join(dir, name)).size >= 1000) part = join(dir, name);
      else await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;
    assert.ok(existsSync(part), 'the killed download left its .part file');

    const store = new MemoryTaskStore();
    const r = record({
      videoId: id,
      state: 'downloading',
      saveDir: dir,
      request: { model: 'vendor-image-video', prompt, images: [] },
      resultUrl: `/v1/videos/${id}/content`,
    });
    await store.save(r);
    const m = manager(store, dir);
    assert.deepEqual(await m.startupCleanup, [], "just written: start-up leaves it (it could be another window's)");
    const [done] = m.resumeUnfinished();
    assert.equal(await done, 'saved');
    assert.ok(existsSync(part), 'just written: the resumed download leaves it too (it could be a live download)');
    assert.deepEqual(readdirSync(dir).sort(), [basename(part), `${stem}.json`, `${stem}.mp4`].sort());

    // Silent past the idle timeout (and margin) now: the next start's sweep removes it.
    const t = (Date.now() - OLD) / 1000;
    utimesSync(part, t, t);
    assert.deepEqual(await manager(store, dir).startupCleanup, [part]);
    assert.deepEqual(readdirSync(dir).sort(), [`${stem}.json`, `${stem}.mp4`]);
  });
});

void describe('stale and vanished .part files', () => {
  /*
   * A second window must not delete a live download's `.part` file. A file is
   * stale only when unmodified for longer than the stream idle timeout plus a margin, at download
   * start and at the start-up sweep alike; and a temporary file that vanished before the link step
   * is a retryable interrupted download, never a raw ENOENT. Real files, real timestamps, real HTTP.
   */

  const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
  const tmp = useTempDir('gs-part-stale-');
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

  function manager(
    store: MemoryTaskStore,
    dir: string,
    o: { idleTimeoutMs?: number; api?: VideoApi } = {},
  ): VideoJobManager {
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
    return readdirSync(dir)
      .filter((x) => partFileTarget(x) === `${stem}.mp4`)
      .map((x) => join(dir, x));
  }

  const MINUTE = 60_000;

  void describe('a .part file is stale only after the idle timeout plus a margin', () => {
    void it('the threshold is the idle timeout plus 30 s, and the 120 s default when none is usable', () => {
      assert.equal(PART_STALE_MARGIN_MS, 30_000);
      assert.equal(partStaleAfterMs(3600_000), 3630_000);
      assert.equal(partStaleAfterMs(5_000), 35_000);
      for (const bad of [undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY])
        assert.equal(partStaleAfterMs(bad), 150_000, String(bad));
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

    void it("a download that starts with a 1-hour idle timeout keeps its task's file silent for 30 minutes and removes one silent for 61", async () => {
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

    void it("a second window that downloads the same task leaves the first window's live .part alone; it goes when that download stops", async () => {
      const id = await finishedVideo(client(), 'two windows');
      const dir = tmp.fresh();
      const stem = fileStem('', id);
      // Window A: a download that received 1000 bytes and is waiting for more (an open connection).
      gw.fault({ match: { path: '/content' }, contentStallAfterBytes: 1000, times: 1 });
      const stopA = new AbortController();
      const a = client().download(id, join(dir, `${stem}.mp4`), { videoId: id, signal: stopA.signal });
      const aFailed = gatewayFailure(a);
      let live: string | undefined;
      for (const start = Date.now(); !live;) {
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
      assert.ok(existsSync(live), "window A's live .part file survived window B's sweep and download");
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
      assert.match(errorHint(err), /Resume the task/);
      assert.doesNotMatch(`${err.message} ${errorHint(err)}`, /ENOENT|no such file/i);
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
        status: (vid, signal) => c.status(vid, signal),
        legacyStatus: (vid, signal) => c.legacyStatus(vid, signal),
        download: (src, dest, o?: VideoDownloadOptions) => {
          const first = ++attempts === 1;
          return c.download(src, dest, {
            ...o,
            onProgress: () => first && partsOf(dir, stem).forEach((f) => unlinkSync(f)),
          });
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
        status: (vid, signal) => c.status(vid, signal),
        legacyStatus: (vid, signal) => c.legacyStatus(vid, signal),
        download: (src, dest, o?: VideoDownloadOptions) =>
          c.download(src, dest, {
            ...o,
            onProgress: () => sabotage && partsOf(dir, stem).forEach((f) => unlinkSync(f)),
          }),
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
});
