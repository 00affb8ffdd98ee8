import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACTIVE_STATES,
  MemoryTaskStore,
  fileStem,
  isTaskRecord,
  shortId,
  slugOfPrompt,
  type VideoTaskRecord,
} from '../../../../../src/video/jobs/core/record';

const rec = (key: string, o: Partial<VideoTaskRecord> = {}): VideoTaskRecord => ({
  v: 1,
  key,
  state: 'polling',
  request: { model: 'vendor-image-video', prompt: 'a fox', images: [] },
  warnings: [],
  polls: 0,
  transientErrors: 0,
  createdAt: 5,
  updatedAt: 5,
  ...o,
});

void describe('video task record', () => {
  void it('a stored value is a record only with version 1, a key, a state, a request and a creation time', () => {
    assert.equal(isTaskRecord(rec('k')), true);
    assert.equal(isTaskRecord({ ...rec('k'), v: 2 }), false);
    assert.equal(isTaskRecord({ ...rec('k'), key: 7 }), false);
    assert.equal(isTaskRecord({ ...rec('k'), state: undefined }), false);
    assert.equal(isTaskRecord({ ...rec('k'), request: null }), false);
    assert.equal(isTaskRecord({ ...rec('k'), createdAt: '5' }), false);
    for (const v of [null, undefined, 'record', 1, []]) assert.equal(isTaskRecord(v), false);
  });

  void it('the active states are the ones a restart drives on', () => {
    assert.deepEqual([...ACTIVE_STATES].sort(), ['creating', 'downloading', 'polling']);
  });

  void it('the memory store keeps copies: a record changed after its save is not changed in the store', async () => {
    const store = new MemoryTaskStore();
    const r = rec('a');
    await store.save(r);
    r.state = 'saved';
    r.request.prompt = 'changed';
    assert.equal(store.load()[0]?.state, 'polling');
    assert.equal(store.load()[0]?.request.prompt, 'a fox');
    const loaded = store.load()[0]!;
    loaded.state = 'error';
    assert.equal(store.load()[0]?.state, 'polling');
  });

  void it('the memory store lists every write in order, keeps the last per key, and forgets a removed key', async () => {
    const store = new MemoryTaskStore();
    await store.save(rec('a', { state: 'creating' }));
    await store.save(rec('b'));
    await store.save(rec('a', { state: 'polling', videoId: 'video_svc_v1_a' }));
    assert.deepEqual(
      store.writes.map((w) => `${w.key}:${w.state}`),
      ['a:creating', 'b:polling', 'a:polling'],
    );
    assert.deepEqual(
      store
        .load()
        .map((r) => r.key)
        .sort(),
      ['a', 'b'],
    );
    assert.equal(store.load().find((r) => r.key === 'a')?.videoId, 'video_svc_v1_a');
    await store.remove('a');
    await store.remove('not-there');
    assert.deepEqual(
      store.load().map((r) => r.key),
      ['b'],
    );
  });

  void it('the file stem is the slug of the prompt and the short id; without a prompt the id names the file', () => {
    assert.equal(fileStem('A Red Fox, running!', 'video_svc_v1_ABCdef123456'), 'a-red-fox-running-ef123456');
    assert.equal(shortId('video_svc_v1_ABCdef123456'), 'ef123456');
    assert.equal(fileStem('', 'video_svc_v1_xyz'), 'video-svc-v1-xyz-svcv1xyz');
  });

  void it('an id without letters or digits gets the short id "task"; a prompt without any gets the slug "video"', () => {
    assert.equal(shortId('___'), 'task');
    assert.equal(slugOfPrompt('日本語のみ'), 'video');
    assert.equal(slugOfPrompt('Crème brûlée'), 'creme-brulee');
  });
});
