import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayFailure as rejects, useGateway } from '../../../../support/helpers';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { describeError } from '../../../../../src/contracts/errorWords';
import { pollLoop } from '../../../../../src/video/jobs/core/pollLoop';

const CREATE = 'POST /v1/videos/generations';

// 50 ms steps: a task completes in about 150 ms, polled every 15 ms.
const gw = useGateway({ videoStepMs: 50, videoSteps: 3 });

function client(key?: string): VideoClient {
  return new VideoClient(
    new HttpClient({ baseUrl: gw.videoUrl, apiKey: key ?? gw.keys.valid, maxRetries: 2, random: () => 0 }),
  );
}

const fast = { intervalMs: 15, limit: 100 };

void describe('the video poll loop against the local gateway', () => {
  void it('a relay whose current route 404s for a legacy task id is polled on the legacy route', async () => {
    gw.fault({ match: { path: '/videos/generations' }, createOnly: 'task_id' });
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'legacy relay #never' });
    gw.fault({ match: { path: `/v1/videos/${id}` }, status: 404, times: -1 });
    const waiting = await pollLoop(c, id, { intervalMs: 5, limit: 3 });
    assert.equal(waiting.kind, 'timeout');
    assert.equal(waiting.last?.via, 'legacy-route');
    // After the first miss only the legacy route is asked.
    assert.equal(gw.counts()['GET /v1/videos/:id'], 1);
    assert.equal(gw.counts()['GET /v1/video/generations/:task_id'], 3);
    gw.completeVideo(id);
    const r = await pollLoop(c, id, fast);
    assert.ok(r.kind === 'done');
    assert.equal(r.status.outcome, 'completed');
    assert.equal(r.status.status, 'SUCCESS');
  });

  void it('a 503 on the legacy route after the current route 404s keeps polling instead of ending the task as an unknown id', async () => {
    gw.fault({ match: { path: '/videos/generations' }, createOnly: 'task_id' });
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'legacy relay, flaky' });
    gw.fault({ match: { path: `/v1/videos/${id}` }, status: 404, times: -1 });
    gw.fault({ match: { path: `/v1/video/generations/${id}` }, status: 503, times: 1 });
    const transient: string[] = [];
    const r = await pollLoop(c, id, { ...fast, onTransientError: (e) => transient.push(e.kind) });
    assert.ok(r.kind === 'done', `expected a final status, got ${r.kind}`);
    assert.equal(r.status.outcome, 'completed');
    assert.equal(r.status.via, 'legacy-route');
    assert.deepEqual(transient, ['server']);
  });
  void it('cancelled and expired tasks end polling with those outcomes', async () => {
    const c = client();
    for (const [tag, outcome] of [
      ['#cancel', 'cancelled'],
      ['#expire', 'expired'],
    ] as const) {
      const { id } = await c.create({ model: 'vendor-image-video', prompt: `x ${tag}` });
      const r = await pollLoop(c, id, fast);
      assert.ok(r.kind === 'done');
      assert.equal(r.status.outcome, outcome);
    }
  });

  void it('transient 5xx, 429 and dropped connections while polling do not end the task', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'flaky' });
    gw.fault({ match: { path: `/videos/${id}` }, status: 503, times: 2 });
    gw.fault({ match: { path: `/videos/${id}` }, status: 429, retryAfter: 0, times: 1 });
    gw.fault({ match: { path: `/videos/${id}` }, drop: 'before-headers', times: 1 });
    const transient: string[] = [];
    const r = await pollLoop(c, id, { ...fast, onTransientError: (e) => transient.push(e.kind) });
    assert.ok(r.kind === 'done');
    assert.equal(r.status.outcome, 'completed');
    assert.deepEqual(transient, ['server', 'server', 'rate_limit', 'network']);
  });

  void it('a 404 id ends polling with the spec explanation (use the id from creation)', async () => {
    const err = await rejects(pollLoop(client(), 'video_svc_v1_doesnotexist', fast));
    assert.equal(err.kind, 'not_found');
    assert.equal(err.videoId, 'video_svc_v1_doesnotexist');
    assert.match(describeError(err).detail, /unknown video id/);
    assert.equal(gw.counts()['GET /v1/videos/:id'], 1);
  });

  void it('401 and 403 end polling at once', async () => {
    const { id } = await client().create({ model: 'vendor-image-video', prompt: 'x' });
    assert.equal((await rejects(pollLoop(client('sk-wrong-key-123'), id, fast))).kind, 'auth');
    assert.equal((await rejects(pollLoop(client(gw.keys.noBalance), id, fast))).kind, 'forbidden');
  });

  void it('the poll limit gives a timeout that carries the id, after exactly `limit` polls', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'slow #never' });
    gw.resetCounts();
    const r = await pollLoop(c, id, { intervalMs: 5, limit: 4 });
    assert.equal(r.kind, 'timeout');
    assert.equal(r.kind === 'timeout' ? r.id : '', id);
    assert.equal(gw.counts()['GET /v1/videos/:id'], 4);
    assert.equal(gw.counts()[CREATE], undefined);
  });

  void it('a round restarted after `polled` polls goes on counting toward the limit', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'restarted #never' });
    gw.resetCounts();
    const numbers: number[] = [];
    const r = await pollLoop(c, id, { intervalMs: 5, limit: 4, polled: 2, onStatus: (_s, n) => numbers.push(n) });
    assert.equal(r.kind, 'timeout');
    assert.equal(r.polls, 4);
    assert.deepEqual(numbers, [3, 4]);
    assert.equal(gw.counts()['GET /v1/videos/:id'], 2);
  });

  void it('a round restarted at or past the limit still asks once (the task may have finished meanwhile)', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'restarted late #never' });
    gw.resetCounts();
    const r = await pollLoop(c, id, { intervalMs: 5, limit: 4, polled: 5 });
    assert.equal(r.kind, 'timeout');
    assert.equal(r.polls, 6);
    assert.equal(gw.counts()['GET /v1/videos/:id'], 1);
    gw.completeVideo(id);
    const done = await pollLoop(c, id, { intervalMs: 5, limit: 4, polled: 6 });
    assert.ok(done.kind === 'done');
    assert.equal(done.polls, 7);
  });

  void it('polling stops when the signal aborts', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'slow #never' });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 60);
    const err = await rejects(pollLoop(c, id, { intervalMs: 20, limit: 1000, signal: ctrl.signal }));
    assert.equal(err.kind, 'aborted');
  });
});
