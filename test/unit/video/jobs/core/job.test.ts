import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, existsSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startGateway } from '../../../../gateway/server';
import { useGateway } from '../../../../support/helpers';
import { HttpClient } from '../../../../../src/api/transport/http';
import { VideoClient } from '../../../../../src/api/video/video';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { VideoJobManager } from '../../../../../src/video/jobs/core/manager';
import { freeName, type VideoApi } from '../../../../../src/video/jobs/core/job';
import {
  MemoryTaskStore,
  shortId,
  slugOfPrompt,
  type VideoTaskRecord,
} from '../../../../../src/video/jobs/core/record';

const CREATE = 'POST /v1/videos/generations';
const CONTENT = 'GET /v1/videos/:id/content';

const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
let root: string;
let n = 0;

interface Setup {
  manager: VideoJobManager;
  store: MemoryTaskStore;
  dir: string;
  ends: { record: VideoTaskRecord; end: string }[];
}

function videoClient(timeoutMs?: number): VideoClient {
  return new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, random: () => 0, timeoutMs }));
}

function setup(
  o: { store?: MemoryTaskStore; pollLimit?: number; dir?: string; intervalMs?: number; api?: VideoApi } = {},
): Setup {
  const store = o.store ?? new MemoryTaskStore();
  const dir = o.dir ?? join(root, `out-${++n}`);
  const api = o.api ?? videoClient();
  const ends: Setup['ends'] = [];
  const manager = new VideoJobManager(
    {
      api,
      store,
      pollIntervalMs: () => o.intervalMs ?? 15,
      pollLimit: () => o.pollLimit ?? 100,
      destination: () => Promise.resolve(dir),
    },
    { onEnd: (record, end) => ends.push({ record, end }) },
  );
  return { manager, store, dir, ends };
}

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

void describe('video job: validate → create → poll → download, resumable', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'gs-video-job-'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });

  void it('the whole flow saves <slug>-<short-id>.mp4 with a JSON sidecar, after one creation', async () => {
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: {
        model: 'vendor-image-video',
        prompt: 'A Red Fox, running!',
        seconds: 6,
        aspect_ratio: '9:16',
        resolution: '480p',
      },
    });
    assert.equal(record.state, 'creating');
    assert.equal(await done, 'saved');
    const r = s.manager.get(record.key)!;
    assert.equal(r.state, 'saved');
    assert.equal(basename(r.file!), `a-red-fox-running-${shortId(r.videoId!)}.mp4`);
    assert.equal(readFileSync(r.file!).subarray(4, 8).toString('latin1'), 'ftyp');
    const meta = JSON.parse(readFileSync(r.sidecar!, 'utf8')) as Record<string, unknown>;
    assert.equal(meta.prompt, 'A Red Fox, running!');
    assert.equal(meta.model, 'vendor-image-video');
    assert.deepEqual(meta.parameters, { seconds: 6, aspect_ratio: '9:16', resolution: '480p', reference_images: [] });
    assert.equal(meta.id, r.videoId);
    assert.ok(typeof meta.createdAt === 'string' && typeof meta.savedAt === 'string');
    assert.equal(gw.counts()[CREATE], 1);
    // Every transition was persisted, in order.
    const states = s.store.writes.filter((w) => w.key === record.key).map((w) => w.state);
    const distinct = states.filter((st, i) => st !== states[i - 1]);
    assert.deepEqual(distinct, ['creating', 'polling', 'downloading', 'saved']);
  });

  void it('the whole flow works when the gateway answers in the legacy status format', async () => {
    gw.fault({ match: { method: 'GET', path: '/v1/videos/video_svc' }, statusFormat: 'legacy', times: -1 });
    const s = setup();
    const { record, done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'legacy fox' } });
    assert.equal(await done, 'saved');
    const r = s.manager.get(record.key)!;
    assert.equal(r.status, 'SUCCESS');
    assert.ok(existsSync(r.file!));
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('an absolute content URL is followed and saved', async () => {
    gw.fault({ match: { method: 'GET', path: '/v1/videos/video_svc' }, contentUrl: 'absolute', times: -1 });
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'absolute fox' },
    });
    assert.equal(await done, 'saved');
    assert.ok(s.manager.get(record.key)!.resultUrl!.startsWith(gw.videoUrl));
    assert.equal(gw.counts()[CONTENT], 1);
  });

  void it('a failure with progress 100 is recorded as failed with its reason and nothing is downloaded', async () => {
    gw.fault({ match: { method: 'GET' }, progressOnFail: '100%', times: -1 });
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'doomed #fail' },
    });
    assert.equal(await done, 'failed');
    const r = s.manager.get(record.key)!;
    assert.equal(r.outcome, 'failed');
    assert.equal(r.progress, 100);
    assert.match(r.error!.detail, /generation failed/);
    assert.equal(gw.counts()[CONTENT], undefined);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('an image that the service cannot fetch fails with the advice to use a direct link or base64', async () => {
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'x', image_urls: ['https://fail-fetch.example.com/a.png'] },
    });
    assert.equal(await done, 'failed');
    const e = s.manager.get(record.key)!.error!;
    assert.equal(e.kind, 'image_fetch');
    assert.match(e.detail, /direct HTTPS link.*base64/);
  });

  void it('JSON instead of video ends in an error naming the wrong path or missing key, with no file', async () => {
    gw.fault({ match: { path: '/content' }, contentJson: true, times: -1 });
    const s = setup();
    const { record, done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'json fox' } });
    assert.equal(await done, 'error');
    const r = s.manager.get(record.key)!;
    assert.equal(r.error!.kind, 'not_video');
    assert.match(r.error!.detail, /wrong path was called or the API key header was missing/);
    assert.equal(r.videoId !== undefined, true);
    assert.deepEqual(existsSync(s.dir) ? readdirSync(s.dir) : [], []);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('resuming a failed download asks for the status again, so an expired temporary result link is replaced by a fresh one', async () => {
    // A relay whose result links are signed per status answer and expire (spec 2.7: result_url is a
    // temporary direct link): the wrapper signs each polled URL and refuses all but the newest.
    const real = videoClient();
    let issued = 0;
    let expireFirst = true;
    const api: VideoApi = {
      create: (req, signal) => real.create(req, signal),
      status: async (id, signal) => {
        const s = await real.status(id, signal);
        if (s.outcome === 'pending' || !s.resultUrl) return s;
        issued++;
        return { ...s, resultUrl: `${s.resultUrl}?sig=${issued}` };
      },
      legacyStatus: (id, signal) => real.legacyStatus(id, signal),
      download: (src, dest, o) => {
        if (expireFirst || !src.endsWith(`?sig=${issued}`)) {
          expireFirst = false;
          return Promise.reject(new GatewayError('forbidden', 'the signed link has expired', { status: 403 }));
        }
        return real.download(src, dest, o);
      },
    };
    const s = setup({ api });
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'expiring link' },
    });
    assert.equal(await done, 'error');
    assert.equal(s.manager.get(record.key)!.error!.kind, 'forbidden');
    assert.equal(await s.manager.resume(record.key), 'saved');
    const r = s.manager.get(record.key)!;
    assert.equal(r.resultUrl?.endsWith('?sig=2'), true, `resumed with ${r.resultUrl}`);
    assert.ok(existsSync(r.file!));
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a truncated download is retried once and then saved', async () => {
    gw.fault({ match: { path: '/content' }, contentTruncate: 50, times: 1 });
    const s = setup();
    const { record, done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'cut once' } });
    assert.equal(await done, 'saved');
    assert.equal(gw.counts()[CONTENT], 2);
    assert.ok(readFileSync(s.manager.get(record.key)!.file!).length > 50);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a download truncated twice is reported after exactly one retry, nothing partial left', async () => {
    gw.fault({ match: { path: '/content' }, contentTruncate: 50, times: -1 });
    const s = setup();
    const { record, done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'cut twice' } });
    assert.equal(await done, 'error');
    const r = s.manager.get(record.key)!;
    assert.equal(r.error!.kind, 'truncated');
    assert.equal(gw.counts()[CONTENT], 2);
    assert.deepEqual(readdirSync(s.dir), []);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a 404 id (Check Video Task with a wrong id) ends in an error explaining the id', async () => {
    const s = setup();
    const { record, done } = await s.manager.track('video_svc_v1_nosuchtask');
    assert.equal(await done, 'error');
    const r = s.manager.get(record.key)!;
    assert.equal(r.error!.kind, 'not_found');
    assert.equal(r.error!.status, 404);
    assert.match(r.error!.detail, /unknown video id/);
    assert.equal(gw.counts()[CREATE], undefined);
  });

  void it('transient 5xx and 429 while polling do not end the task', async () => {
    gw.fault({ match: { method: 'GET', path: '/v1/videos/video_svc' }, status: 502, times: 2 });
    gw.fault({ match: { method: 'GET', path: '/v1/videos/video_svc' }, status: 429, times: 1 });
    const s = setup();
    const { record, done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'bumpy fox' } });
    assert.equal(await done, 'saved');
    assert.equal(s.manager.get(record.key)!.transientErrors, 3);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('the poll limit keeps the task as "still running" with its id; Resume polls again and saves, never re-creating', async () => {
    const s = setup({ pollLimit: 3 });
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'patient fox #never' },
    });
    assert.equal(await done, 'timed_out');
    const stuck = s.manager.get(record.key)!;
    assert.equal(stuck.state, 'timed_out');
    assert.match(stuck.videoId!, /^video_svc_v1_/);
    assert.equal(stuck.polls, 3);
    gw.completeVideo(stuck.videoId!);
    assert.equal(await s.manager.resume(record.key), 'saved');
    assert.ok(existsSync(s.manager.get(record.key)!.file!));
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a task resumes from its persisted record in a fresh manager (a restart) without a second creation', async () => {
    const store = new MemoryTaskStore();
    const first = setup({ store });
    const { record } = await first.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'restart fox #never' },
    });
    await until(() => (first.store.load().find((r) => r.key === record.key)?.polls ?? 0) >= 1);
    first.manager.dispose(); // the window closes mid-poll: nothing more is written
    const stored = store.load().find((r) => r.key === record.key)!;
    assert.equal(stored.state, 'polling');
    const second = setup({ store, dir: first.dir });
    assert.equal(second.manager.list().length, 1);
    const resumed = second.manager.resumeUnfinished();
    assert.equal(resumed.length, 1);
    gw.completeVideo(stored.videoId!);
    assert.equal(await resumed[0], 'saved');
    assert.equal(second.manager.get(record.key)!.videoId, stored.videoId);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a task that hit the poll limit gets a new round at the next start and is saved, never re-created', async () => {
    const store = new MemoryTaskStore();
    const first = setup({ store, pollLimit: 2 });
    const { record, done } = await first.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'late fox #never' },
    });
    assert.equal(await done, 'timed_out');
    const stored = store.load().find((r) => r.key === record.key)!;
    assert.equal(stored.state, 'timed_out');
    gw.completeVideo(stored.videoId!);
    const second = setup({ store, dir: first.dir, pollLimit: 2 });
    const resumed = second.manager.resumeUnfinished();
    assert.equal(resumed.length, 1);
    assert.equal(await resumed[0], 'saved');
    assert.ok(existsSync(second.manager.get(record.key)!.file!));
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a paused task stays paused at the next start (the user stopped watching it)', async () => {
    const store = new MemoryTaskStore();
    const first = setup({ store });
    const { record } = await first.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'paused fox #never' },
    });
    await until(() => (store.load().find((r) => r.key === record.key)?.polls ?? 0) >= 1);
    await first.manager.pause(record.key);
    assert.equal(store.load().find((r) => r.key === record.key)!.state, 'paused');
    const second = setup({ store, dir: first.dir });
    assert.equal(second.manager.resumeUnfinished().length, 0);
    assert.equal(second.manager.get(record.key)!.state, 'paused');
  });

  void it('a record left in "creating" by a crash is never sent again; it is reported as interrupted', async () => {
    const store = new MemoryTaskStore();
    await store.save({
      v: 1,
      key: 'k1',
      state: 'creating',
      request: { model: 'vendor-image-video', prompt: 'lost', images: [] },
      warnings: [],
      polls: 0,
      transientErrors: 0,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const s = setup({ store });
    const [end] = s.manager.resumeUnfinished();
    assert.equal(await end, 'error');
    assert.equal(s.manager.get('k1')!.error!.kind, 'interrupted');
    assert.equal(gw.counts()[CREATE], undefined);
  });

  void it('a record left in "polling" by a closed window goes on counting its polls toward the limit', async () => {
    const { id } = await videoClient().create({ model: 'vendor-image-video', prompt: 'restarted #never' });
    gw.resetCounts();
    const store = new MemoryTaskStore();
    await store.save({
      v: 1,
      key: 'k2',
      state: 'polling',
      request: { model: 'vendor-image-video', prompt: 'restarted #never', images: [] },
      warnings: [],
      videoId: id,
      polls: 3,
      transientErrors: 0,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const s = setup({ store, pollLimit: 4 });
    const [end] = s.manager.resumeUnfinished();
    assert.equal(await end, 'timed_out');
    assert.equal(s.manager.get('k2')!.polls, 4);
    assert.equal(gw.counts()['GET /v1/videos/:id'], 1, 'one poll was left of the limit');
  });

  void it('a creation POST that gets no answer in time is not sent again, and the user is told the task may exist (billed), not to simply retry', async () => {
    gw.fault({ match: { method: 'POST', path: '/videos/generations' }, delayMs: 400 });
    const s = setup({ api: videoClient(100) });
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'slow gateway' },
    });
    assert.equal(await done, 'error');
    const e = s.manager.get(record.key)!.error!;
    assert.equal(e.kind, 'interrupted');
    assert.match(e.detail, /not sent again/);
    assert.match(e.detail, /usage records/);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a creation POST to a gateway that refuses the connection is reported as a network error (nothing was created)', async () => {
    const closed = await startGateway();
    const url = closed.videoUrl;
    await closed.close();
    const api = new VideoClient(new HttpClient({ baseUrl: url, apiKey: gw.keys.valid, maxRetries: 0 }));
    const s = setup({ api });
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'nobody home' },
    });
    assert.equal(await done, 'error');
    assert.equal(s.manager.get(record.key)!.error!.kind, 'network');
  });

  void it('stopping while the creation POST is in flight still keeps the id of the created task', async () => {
    gw.fault({ match: { method: 'POST', path: '/videos/generations' }, delayMs: 150 });
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'slow create' },
    });
    await s.manager.pause(record.key);
    assert.equal(await done, 'paused');
    const r = s.manager.get(record.key)!;
    assert.match(r.videoId ?? '', /^video_svc_v1_/);
    assert.equal(await s.manager.resume(record.key), 'saved');
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a window closing during the creation POST stores the id, and the next start resumes it', async () => {
    gw.fault({ match: { method: 'POST', path: '/videos/generations' }, delayMs: 150 });
    const store = new MemoryTaskStore();
    const first = setup({ store });
    const { record } = await first.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'closing create' },
    });
    first.manager.dispose();
    await until(() => store.load()[0]?.videoId !== undefined);
    assert.equal(store.load()[0]!.state, 'polling');
    const second = setup({ store, dir: first.dir });
    const [end] = second.manager.resumeUnfinished();
    assert.equal(await end, 'saved');
    assert.equal(second.manager.get(record.key)!.state, 'saved');
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('stop watching pauses without losing the id; resume finishes the task', async () => {
    const s = setup();
    const { record, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'pause fox #never' },
    });
    await until(() => s.manager.get(record.key)?.state === 'polling');
    await s.manager.pause(record.key);
    assert.equal(await done, 'paused');
    assert.equal(s.manager.get(record.key)!.state, 'paused');
    gw.completeVideo(s.manager.get(record.key)!.videoId!);
    assert.equal(await s.manager.resume(record.key), 'saved');
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('two tasks at once both finish, into two files, with two creations', async () => {
    const s = setup();
    const a = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'twin' } });
    const b = await s.manager.submit({
      request: { model: 'vendor-video-1.5', prompt: 'twin', image_urls: ['https://images.example.com/cat.png'] },
    });
    assert.deepEqual(await Promise.all([a.done, b.done]), ['saved', 'saved']);
    const files = [s.manager.get(a.record.key)!.file!, s.manager.get(b.record.key)!.file!];
    assert.notEqual(files[0], files[1]);
    assert.equal(readdirSync(s.dir).filter((f) => f.endsWith('.mp4')).length, 2);
    assert.equal(gw.counts()[CREATE], 2);
    assert.equal(s.ends.length, 2);
  });

  void it('an existing file of the same name is never overwritten: the next free name is used', async () => {
    // Two lists following the same finished task save into the same folder.
    const s1 = setup();
    const { record, done } = await s1.manager.submit({ request: { model: 'vendor-image-video', prompt: 'same name' } });
    assert.equal(await done, 'saved');
    const first = s1.manager.get(record.key)!;
    const before = readFileSync(first.file!);
    const s2 = setup({ dir: s1.dir });
    const t = await s2.manager.track(first.videoId!, 'same name');
    assert.equal(await t.done, 'saved');
    const second = s2.manager.get(t.record.key)!;
    assert.equal(basename(second.file!), basename(first.file!).replace(/\.mp4$/, '-2.mp4'));
    assert.deepEqual(readFileSync(first.file!), before);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('the list keeps at most 50 finished tasks but never drops an unfinished one', async () => {
    const store = new MemoryTaskStore();
    const base = {
      request: { model: 'vendor-image-video', prompt: 'old', images: [] },
      warnings: [],
      polls: 0,
      transientErrors: 0,
      updatedAt: 0,
    };
    for (let i = 0; i < 55; i++)
      await store.save({ v: 1, key: `done-${i}`, state: 'saved', createdAt: 1000 + i, ...base });
    await store.save({
      v: 1,
      key: 'waiting',
      state: 'timed_out',
      videoId: 'video_svc_v1_keepme',
      createdAt: 1,
      ...base,
    });
    const s = setup({ store });
    const { done } = await s.manager.submit({ request: { model: 'vendor-image-video', prompt: 'new' } });
    const keys = s.manager.list().map((r) => r.key);
    assert.ok(keys.includes('waiting'));
    assert.ok(keys.includes('done-54'));
    assert.ok(!keys.includes('done-0'));
    assert.equal(keys.filter((k) => k.startsWith('done-')).length, 50);
    assert.equal(store.load().length, 52);
    await done;
  });

  void it('a request that breaks a spec rule is refused before anything is sent', async () => {
    const s = setup();
    await assert.rejects(
      s.manager.submit({ request: { model: 'vendor-video-1.5', prompt: 'no image' } }),
      (e: unknown) =>
        e instanceof GatewayError &&
        e.kind === 'validation' &&
        /only supports exactly one reference image/.test(e.message),
    );
    assert.deepEqual(s.manager.list(), []);
    assert.deepEqual(gw.requests(), []);
  });

  void it('several references with 15 s are sent as 10 s and the warning is kept', async () => {
    const s = setup();
    const imgs = ['https://images.example.com/a.png', 'https://images.example.com/b.png'];
    const { record, warnings, done } = await s.manager.submit({
      request: { model: 'vendor-image-video', prompt: 'clamp', seconds: 15, image_urls: imgs },
    });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /10 s/);
    await done;
    const sent = gw.requests().find((q) => q.method === 'POST')!.body as { seconds: number };
    assert.equal(sent.seconds, 10);
    assert.equal(s.manager.get(record.key)!.request.seconds, 10);
  });
});

void describe('file naming', () => {
  void it('slugs are lower-case ASCII words, at most 40 characters, never empty', () => {
    assert.equal(slugOfPrompt('Café au lait — at dawn!'), 'cafe-au-lait-at-dawn');
    assert.equal(slugOfPrompt('日本'), 'video');
    assert.ok(slugOfPrompt('word '.repeat(30)).length <= 40);
    assert.ok(!slugOfPrompt('word '.repeat(30)).endsWith('-'));
    assert.equal(slugOfPrompt('../../etc/passwd'), 'etc-passwd');
  });

  void it('the short id is the tail of the id, letters and digits only', () => {
    assert.equal(shortId('video_svc_v1_0123456789abcdef'), '89abcdef');
  });

  void it('freeName skips names whose video or sidecar exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gs-names-'));
    try {
      assert.equal(basename(await freeName(dir, 'fox-1234')), 'fox-1234.mp4');
      writeFileSync(join(dir, 'fox-1234.mp4'), 'x');
      assert.equal(basename(await freeName(dir, 'fox-1234')), 'fox-1234-2.mp4');
      writeFileSync(join(dir, 'fox-1234-2.json'), '{}');
      assert.equal(basename(await freeName(dir, 'fox-1234')), 'fox-1234-3.mp4');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
