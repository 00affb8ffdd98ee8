// A video task remembers its gateway profile (issue 22): created, polled and downloaded with that
// profile's address and key whatever profile is active later, and after a reload.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECOND_GATEWAY } from '../../../../gateway/keys';
import { startGateway, type Gateway } from '../../../../gateway/server';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { VideoJobManager } from '../../../../../src/video/jobs/core/manager';
import type { VideoApi } from '../../../../../src/video/jobs/core/job';
import { MemoryTaskStore } from '../../../../../src/video/jobs/core/record';

let a: Gateway;
let b: Gateway;
let root: string;

/** Profile "a" is the first gateway, "b" the second instance (its key and required header). */
function apiFor(profile: string | undefined): VideoApi {
  const http =
    profile === 'b'
      ? new HttpClient({ baseUrl: b.videoUrl, apiKey: b.keys.valid, headers: { 'x-relay-token': 'relay-second' } })
      : new HttpClient({ baseUrl: a.videoUrl, apiKey: a.keys.valid });
  return new VideoClient(http);
}

function manager(store: MemoryTaskStore, active: { id: string }): VideoJobManager {
  return new VideoJobManager({
    api: apiFor('default'),
    apiFor,
    profile: () => active.id,
    store,
    pollIntervalMs: () => 20,
    pollLimit: () => 500,
    destination: () => Promise.resolve(root),
  });
}

void describe('a video task keeps its profile', () => {
  before(async () => {
    a = await startGateway({ videoStepMs: 150, videoSteps: 4 });
    b = await startGateway({ ...SECOND_GATEWAY, videoStepMs: 150, videoSteps: 4 });
    root = mkdtempSync(join(tmpdir(), 'gs-video-profile-'));
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  void it("started on A, it finishes with A's key after a switch to B and after a reload", async () => {
    const active = { id: 'a' };
    const store = new MemoryTaskStore();
    const first = manager(store, active);
    const { record } = await first.submit({ request: { model: 'vendor-image-video', prompt: 'a fox' } });
    assert.equal(record.profile, 'a');
    active.id = 'b'; // the user switches while it runs
    // The window reloads mid-poll: right after A's first poll, not after a fixed time, which a
    // loaded machine can stretch past the clip's 600 ms (then nothing is left to resume).
    const polled = () => a.requests().some((r) => r.route === '/v1/videos/:id');
    for (const deadline = Date.now() + 5000; !polled() && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 5));
    first.dispose();
    assert.notEqual(first.get(record.key)?.state, 'saved', 'the reload came before the end');
    const second = manager(store, active);
    assert.equal(second.get(record.key)?.profile, 'a');
    const [done] = second.resumeUnfinished();
    assert.equal(await done, 'saved');
    assert.equal(second.get(record.key)?.state, 'saved');
    const onA = a.requests().filter((r) => r.route.startsWith('/v1/video'));
    assert.ok(
      onA.some((r) => r.route === '/v1/videos/:id/content'),
      'downloaded from A',
    );
    assert.ok(
      onA.every((r) => r.auth === 'valid'),
      "every request carried A's key",
    );
    assert.deepEqual(
      b.requests().filter((r) => r.route.startsWith('/v1/video')),
      [],
      'nothing went to B',
    );
    // A task started now runs on B, with B's key and header.
    const next = await second.submit({ request: { model: 'vendor-image-video', prompt: 'a hare' } });
    assert.equal(next.record.profile, 'b');
    assert.equal(await next.done, 'saved');
    assert.ok(b.requests().some((r) => r.route === '/v1/videos/:id/content' && r.auth === 'valid'));
    second.dispose();
  });

  void it('a task recorded before profiles (no profile) runs on Default, not on the active one', async () => {
    const store = new MemoryTaskStore();
    const active = { id: 'b' };
    const m = manager(store, active);
    const { record, done } = await m.submit({
      request: { model: 'vendor-image-video', prompt: 'old' },
      profile: undefined,
    });
    assert.equal(record.profile, 'b', 'a new task takes the active profile');
    await done;
    const legacy = { ...record, key: 'legacy', state: 'polling' as const, profile: undefined };
    await store.save(legacy);
    const r = manager(store, active);
    assert.equal(r.runningOn('default', true).length, 1);
    assert.equal(r.runningOn('b', false).length, 0);
    m.dispose();
    r.dispose();
  });
});
