// The manager's own rules over its records (job.test.ts drives whole runs through it): what the
// list holds and in what order, which tasks run on a profile, removal, tracking an id already
// listed, the profile a new task is bound to, and that a removed task stops before it goes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useGateway } from '../../../../support/helpers';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { VideoJobManager } from '../../../../../src/video/jobs/core/manager';
import { MemoryTaskStore, type VideoTaskRecord, type VideoTaskState } from '../../../../../src/video/jobs/core/record';

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
let root: string;
let n = 0;

function record(key: string, state: VideoTaskState, o: Partial<VideoTaskRecord> = {}): VideoTaskRecord {
  return {
    v: 1,
    key,
    state,
    request: { model: 'vendor-image-video', prompt: key, images: [] },
    warnings: [],
    polls: 0,
    transientErrors: 0,
    createdAt: 1000,
    updatedAt: 1000,
    ...o,
  };
}

function setup(o: { store?: MemoryTaskStore; profile?: () => string | undefined } = {}) {
  const store = o.store ?? new MemoryTaskStore();
  const changes: { key: string; removed: boolean }[] = [];
  const ends: { key: string; end: string }[] = [];
  const manager = new VideoJobManager(
    {
      api: new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, random: () => 0 })),
      store,
      pollIntervalMs: () => 15,
      pollLimit: () => 100,
      destination: () => Promise.resolve(join(root, `out-${++n}`)),
      ...(o.profile ? { profile: o.profile } : {}),
    },
    {
      onChange: (r, removed) => changes.push({ key: r.key, removed }),
      onEnd: (r, end) => ends.push({ key: r.key, end }),
    },
  );
  return { manager, store, changes, ends };
}

void describe('video job manager', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'gs-video-manager-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  void it('lists the stored records newest first, skipping stored values that are no record of this version', async () => {
    const store = new MemoryTaskStore();
    await store.save(record('old', 'saved', { createdAt: 1 }));
    await store.save(record('new', 'failed', { createdAt: 3 }));
    await store.save(record('mid', 'paused', { createdAt: 2, videoId: 'video_svc_v1_mid' }));
    await store.save({ v: 2, key: 'future', state: 'saved' } as unknown as VideoTaskRecord);
    const { manager } = setup({ store });
    assert.deepEqual(
      manager.list().map((r) => r.key),
      ['new', 'mid', 'old'],
    );
    assert.equal(manager.get('future'), undefined);
    assert.equal(manager.get('mid')?.videoId, 'video_svc_v1_mid');
    assert.equal(manager.isRunning('mid'), false);
    assert.equal(manager.isRunning('nothing'), false);
  });

  void it('runningOn names the tasks still running on a profile; Default also owns tasks from before profiles', async () => {
    const store = new MemoryTaskStore();
    await store.save(record('a-polling', 'polling', { profile: 'a', videoId: 'video_svc_v1_a' }));
    await store.save(record('a-downloading', 'downloading', { profile: 'a', videoId: 'video_svc_v1_b' }));
    await store.save(record('a-saved', 'saved', { profile: 'a' }));
    await store.save(record('a-paused', 'paused', { profile: 'a', videoId: 'video_svc_v1_c' }));
    await store.save(record('legacy-creating', 'creating'));
    await store.save(record('b-polling', 'polling', { profile: 'b', videoId: 'video_svc_v1_d' }));
    const { manager } = setup({ store });
    const keys = (rs: VideoTaskRecord[]) => rs.map((r) => r.key).sort();
    assert.deepEqual(keys(manager.runningOn('a', false)), ['a-downloading', 'a-polling']);
    assert.deepEqual(keys(manager.runningOn('default', true)), ['legacy-creating']);
    assert.deepEqual(keys(manager.runningOn('default', false)), []);
    assert.deepEqual(keys(manager.runningOn('b', false)), ['b-polling']);
  });

  void it('resumeUnfinished leaves paused, finished and id-less timed-out tasks alone', async () => {
    const store = new MemoryTaskStore();
    await store.save(record('paused', 'paused', { videoId: 'video_svc_v1_p' }));
    await store.save(record('saved', 'saved'));
    await store.save(record('failed', 'failed'));
    await store.save(record('timed-out-no-id', 'timed_out'));
    const { manager } = setup({ store });
    assert.deepEqual(manager.resumeUnfinished(), []);
    assert.deepEqual(gw.requests(), []);
    assert.equal(manager.get('paused')?.state, 'paused');
  });

  void it('remove takes a task out of the list and the store and says so; an unknown key is no error', async () => {
    const store = new MemoryTaskStore();
    await store.save(record('keep', 'saved'));
    await store.save(record('drop', 'failed'));
    const { manager, changes } = setup({ store });
    await manager.remove('drop');
    await manager.remove('never-there');
    assert.deepEqual(
      manager.list().map((r) => r.key),
      ['keep'],
    );
    assert.deepEqual(
      store.load().map((r) => r.key),
      ['keep'],
    );
    assert.deepEqual(changes, [{ key: 'drop', removed: true }]);
  });

  void it('resume and pause of a key that is not listed fail naming the key', async () => {
    const { manager } = setup();
    assert.throws(() => manager.resume('ghost'), /No video task ghost/);
    await assert.rejects(manager.pause('ghost'), /No video task ghost/);
  });

  void it('track refuses what is no video id and records nothing', async () => {
    const { manager, store } = setup();
    await assert.rejects(
      manager.track('../../etc/passwd'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'validation',
    );
    assert.deepEqual(store.load(), []);
    assert.deepEqual(gw.requests(), []);
  });

  void it('track of an id already listed resumes that task instead of adding it twice', async () => {
    const store = new MemoryTaskStore();
    await store.save(record('listed', 'paused', { videoId: 'video_svc_v1_unknowntoit' }));
    const { manager } = setup({ store });
    const { record: r, done } = await manager.track(' video_svc_v1_unknowntoit ');
    assert.equal(r.key, 'listed');
    // The test gateway has no such task: the resumed poll ends in an error, on the same record.
    assert.equal(await done, 'error');
    assert.equal(store.load().length, 1);
    assert.equal(manager.get('listed')?.error?.kind, 'not_found');
  });

  void it('a new task is bound to the profile given, else the active one, else to none (Default)', async () => {
    let active: string | undefined = 'work';
    const { manager } = setup({ profile: () => active });
    const given = await manager.submit({ request: { model: 'vendor-image-video', prompt: 'given' }, profile: 'home' });
    const current = await manager.submit({ request: { model: 'vendor-image-video', prompt: 'active' } });
    active = undefined;
    const none = await manager.submit({ request: { model: 'vendor-image-video', prompt: 'none' } });
    assert.equal(given.record.profile, 'home');
    assert.equal(current.record.profile, 'work');
    assert.equal('profile' in none.record, false);
    assert.deepEqual(await Promise.all([given.done, current.done, none.done]), ['saved', 'saved', 'saved']);
  });

  void it('a submitted task is stored in "creating" before its POST, with its image labels and no image data', async () => {
    const { manager, store } = setup();
    const { record: r, done } = await manager.submit({
      request: {
        model: 'vendor-image-video',
        prompt: 'labelled',
        image_urls: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='],
      },
    });
    assert.equal(store.writes[0]?.state, 'creating');
    assert.equal(store.writes[0]?.key, r.key);
    assert.deepEqual(r.request.images, ['https://example.com/a.png', '(embedded image)']);
    assert.ok(!JSON.stringify(store.writes).includes('iVBORw0KGgo'));
    await done;
  });

  void it('a task removed while it runs stops first: its run ends paused, nothing is saved, and it leaves list and store', async () => {
    const { manager, ends, store } = setup();
    const { record: r, done } = await manager.submit({ request: { model: 'vendor-image-video', prompt: 'gone' } });
    await manager.remove(r.key);
    assert.equal(await done, 'paused');
    assert.deepEqual(ends, [{ key: r.key, end: 'paused' }]);
    assert.equal(gw.counts()['GET /v1/videos/:id/content'] ?? 0, 0);
    assert.equal(manager.get(r.key), undefined);
    assert.equal(
      store.load().find((x) => x.key === r.key),
      undefined,
    );
  });
});
