import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, existsSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayFailure as rejects, useGateway, finishedVideo, useTempDir } from '../../../support/helpers';
import { HttpClient } from '../../../../src/api/transport/http';
import { VideoClient } from '../../../../src/api/video/video';
import { GatewayError } from '../../../../src/api/transport/errors';
import { describeError } from '../../../../src/contracts/errorWords';
import {
  normaliseVideoStatus,
  parseProgress,
  resolveResultUrl,
  assertVideoId,
  videoIdFromCreation,
} from '../../../../src/api/video/videoStatus';
import { VideoJobManager } from '../../../../src/video/jobs/core/manager';
import { pollLoop } from '../../../../src/video/jobs/core/pollLoop';
import { MemoryTaskStore, type VideoTaskRecord } from '../../../../src/video/jobs/core/record';
import type { RecordedRequest } from '../../../gateway/server';
import { saveTo } from '../../../../src/video/jobs/core/saveDownload';

const CREATE = 'POST /v1/videos/generations';

// 50 ms steps: a task completes in about 150 ms, polled every 15 ms.
const gw = useGateway({ videoStepMs: 50, videoSteps: 3 });
let dir: string;

function client(key?: string, baseUrl?: string): VideoClient {
  return new VideoClient(
    new HttpClient({ baseUrl: baseUrl ?? gw.videoUrl, apiKey: key ?? gw.keys.valid, maxRetries: 2, random: () => 0 }),
  );
}

const fast = { intervalMs: 15, limit: 100 };

void describe('video client against the local gateway', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gs-video-client-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  void it('creation returns the compatible id and is sent exactly once', async () => {
    const { id } = await client().create({ model: 'vendor-image-video', prompt: 'a lighthouse' });
    assert.match(id, /^video_svc_v1_/);
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('a creation carrying a large base64 image gets time for its upload beyond the usual header deadline', async () => {
    // 100 ms would be the deadline for a text-only request; a 1 MB body earns about 20 s more.
    const image = `data:image/png;base64,${Buffer.alloc(750_000, 7).toString('base64')}`;
    gw.fault({ match: { method: 'POST', path: '/videos/generations' }, delayMs: 400, times: 2 });
    const c = new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, timeoutMs: 100 }));
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'from a big image', image_urls: [image] });
    assert.match(id, /^video_svc_v1_/);
    // The same gateway delay on a text-only creation still hits the deadline.
    assert.equal((await rejects(c.create({ model: 'vendor-image-video', prompt: 'text only' }))).kind, 'timeout');
    assert.equal(gw.counts()[CREATE], 2, 'each creation reached the gateway once; the timed-out one was not retried');
  });

  void it('the video id falls back to request_id, then task_id, when id is absent', async () => {
    gw.fault({ match: { path: '/videos/generations' }, createOnly: 'request_id' });
    assert.match((await client().create({ model: 'vendor-image-video', prompt: 'x' })).id, /^req_/);
    gw.fault({ match: { path: '/videos/generations' }, createOnly: 'task_id' });
    assert.match((await client().create({ model: 'vendor-image-video', prompt: 'x' })).id, /^task_/);
  });

  void it('a 503 on creation is reported, never retried (creation is billed)', async () => {
    gw.fault({ match: { method: 'POST', path: '/videos/generations' }, status: 503, times: 3 });
    const err = await rejects(client().create({ model: 'vendor-image-video', prompt: 'x' }));
    assert.equal(err.kind, 'server');
    assert.equal(gw.counts()[CREATE], 1);
  });

  void it('an unreachable reference image gives an image_fetch error with the spec advice', async () => {
    const err = await rejects(
      client().create({
        model: 'vendor-image-video',
        prompt: 'x',
        image_urls: ['https://cdn.example.invalid/cat.png'],
      }),
    );
    assert.equal(err.kind, 'image_fetch');
    assert.match(describeError(err).detail, /direct HTTPS link|base64/);
  });

  void it('the whole flow in the current format: poll to completed, then download the MP4 with the key', async () => {
    const c = client();
    // `#never` holds the task in progress until we have seen that state, whatever the machine's load.
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'current format #never' });
    const seen: string[] = [];
    const r = await pollLoop(c, id, {
      ...fast,
      onStatus: (s) => {
        seen.push(`${s.status}:${s.progress ?? '-'}`);
        if (s.status === 'in_progress') gw.completeVideo(id);
      },
    });
    assert.equal(r.kind, 'done');
    assert.ok(r.kind === 'done');
    assert.equal(r.status.outcome, 'completed');
    assert.equal(r.status.format, 'current');
    assert.equal(r.status.resultUrl, `/v1/videos/${id}/content`);
    assert.ok(
      seen.some((s) => s.startsWith('in_progress:')),
      seen.join(','),
    );
    const dest = join(dir, 'current.mp4');
    const d = await c.download(r.status.resultUrl!, saveTo(dest));
    const bytes = readFileSync(dest);
    assert.equal(d.bytes, bytes.length);
    assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');
    const content = gw.requests().filter((q) => q.route === '/v1/videos/:id/content');
    assert.equal(content.length, 1);
    assert.equal(content[0]!.auth, 'valid');
  });

  void it('the whole flow in the legacy format: SUCCESS with a result_url completes, "50%" progress parsed', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'legacy format #never' });
    gw.fault({ match: { path: `/videos/${id}` }, statusFormat: 'legacy', times: -1 });
    const progress: (number | undefined)[] = [];
    const r = await pollLoop(c, id, {
      ...fast,
      onStatus: (s) => {
        progress.push(s.progress);
        if (s.status === 'IN_PROGRESS' && (s.progress ?? 0) > 0) gw.completeVideo(id);
      },
    });
    assert.ok(r.kind === 'done');
    assert.equal(r.status.format, 'legacy');
    assert.equal(r.status.status, 'SUCCESS');
    assert.equal(r.status.outcome, 'completed');
    assert.ok(
      progress.some((p) => p !== undefined && p > 0 && p < 100),
      String(progress),
    );
    const d = await c.download(r.status.resultUrl!, saveTo(join(dir, 'legacy.mp4')));
    assert.ok(d.bytes > 100);
  });

  void it('the legacy route answers the task by its task_id', async () => {
    gw.fault({ match: { path: '/videos/generations' }, createOnly: 'task_id' });
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'old relay' });
    const s = await c.legacyStatus(id);
    assert.equal(s.format, 'legacy');
    assert.equal(s.id, id);
    assert.equal(s.outcome, 'pending');
  });

  void it('an absolute content URL on the video host is downloaded with the key', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'absolute' });
    gw.fault({ match: { path: `/videos/${id}` }, contentUrl: 'absolute', times: -1 });
    const r = await pollLoop(c, id, fast);
    assert.ok(r.kind === 'done');
    assert.equal(r.status.resultUrl, `${gw.videoUrl}/v1/videos/${id}/content`);
    await c.download(r.status.resultUrl!, saveTo(join(dir, 'absolute.mp4')));
    const content = gw.requests().filter((q) => q.route === '/v1/videos/:id/content');
    assert.equal(content[0]?.auth, 'valid');
  });

  void it('a failed task that reports progress 100 is a failure, decided by status', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'boom #fail' });
    gw.fault({ match: { path: `/videos/${id}` }, progressOnFail: '100%', times: -1 });
    const r = await pollLoop(c, id, fast);
    assert.ok(r.kind === 'done');
    assert.equal(r.status.outcome, 'failed');
    assert.equal(r.status.progress, 100);
    assert.match(r.status.failReason ?? '', /generation failed/);
  });

  void it('a legacy FAILURE carries its fail_reason', async () => {
    const c = client();
    const { id } = await c.create({
      model: 'vendor-image-video',
      prompt: 'x',
      image_urls: ['https://fail-fetch.example.com/a.png'],
    });
    gw.fault({ match: { path: `/videos/${id}` }, statusFormat: 'legacy', times: -1 });
    const r = await pollLoop(c, id, fast);
    assert.ok(r.kind === 'done');
    assert.equal(r.status.status, 'FAILURE');
    assert.equal(r.status.outcome, 'failed');
    assert.match(r.status.failReason ?? '', /image_fetch_error/);
  });

  void it('JSON on the content route is the spec error "wrong path or missing key", and nothing is saved', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'json' });
    await pollLoop(c, id, fast);
    gw.fault({ match: { path: '/content' }, contentJson: true });
    const dest = join(dir, 'json.mp4');
    const err = await rejects(c.download(id, saveTo(dest)));
    assert.equal(err.kind, 'not_video');
    assert.match(err.message, /wrong path was called or the API key header was missing/);
    assert.equal(existsSync(dest), false);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('json')),
      [],
    );
  });

  void it('JSON served as application/octet-stream is still refused by the video signature check', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'json octet' });
    await pollLoop(c, id, fast);
    gw.fault({
      match: { path: '/content' },
      contentJson: true,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const err = await rejects(c.download(id, saveTo(join(dir, 'octet.mp4'))));
    assert.equal(err.kind, 'not_video');
  });

  void it('an MP4 served as application/octet-stream is accepted', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'octet' });
    await pollLoop(c, id, fast);
    gw.fault({ match: { path: '/content' }, contentType: 'application/octet-stream' });
    const d = await c.download(id, saveTo(join(dir, 'octet-ok.mp4')));
    assert.ok(d.bytes > 0);
  });

  void it('a body shorter than Content-Length is reported as truncated and no partial file remains', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'cut' });
    await pollLoop(c, id, fast);
    gw.fault({ match: { path: '/content' }, contentTruncate: 100 });
    const dest = join(dir, 'cut.mp4');
    const err = await rejects(c.download(id, saveTo(dest)));
    assert.equal(err.kind, 'truncated');
    assert.match(err.message, /stopped after \d+ of \d+ bytes/);
    assert.equal(existsSync(dest), false);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('cut')),
      [],
    );
  });

  void it('a download never overwrites an existing file', async () => {
    const c = client();
    const { id } = await c.create({ model: 'vendor-image-video', prompt: 'keep' });
    await pollLoop(c, id, fast);
    const dest = join(dir, 'keep.mp4');
    writeFileSync(dest, 'precious');
    await assert.rejects(c.download(id, saveTo(dest)), /EEXIST/);
    assert.equal(readFileSync(dest, 'utf8'), 'precious');
  });

  void it('a hostile id never becomes a URL path: nothing is requested', async () => {
    const c = client();
    for (const bad of ['../models', 'a/b', '', 'x?y=1', '..']) {
      assert.equal((await rejects(c.status(bad))).kind, 'validation', bad);
    }
    assert.deepEqual(gw.requests(), []);
  });

  void it('the model list keeps only models with video capability', async () => {
    const models = await client().listVideoModels();
    assert.deepEqual(models.sort(), ['vendor-image-video', 'vendor-video-1.5']);
    const chat = await client(undefined, gw.url).listVideoModels();
    assert.deepEqual(chat.sort(), ['vendor-image-video', 'vendor-video-1.5']);
  });
});

void describe('video status rules (pure)', () => {
  void it('progress strings such as "30%" are parsed; junk is ignored', () => {
    assert.equal(parseProgress('30%'), 30);
    assert.equal(parseProgress(' 45 '), 45);
    assert.equal(parseProgress(100), 100);
    assert.equal(parseProgress('soon'), undefined);
  });

  void it('unknown statuses mean keep polling, in both formats', () => {
    for (const status of ['NOT_START', 'UNKNOWN', 'unknown', 'SUBMITTED', 'processing']) {
      assert.equal(
        normaliseVideoStatus({ code: 'success', data: { task_id: 't1', status, progress: '10%' } }, 't1').outcome,
        'pending',
        status,
      );
      assert.equal(normaliseVideoStatus({ id: 'v1', status }, 'v1').outcome, 'pending', status);
    }
  });

  void it('legacy SUCCESS without a result_url keeps polling (spec 3 rule 2)', () => {
    assert.equal(
      normaliseVideoStatus({ code: 'success', data: { task_id: 't', status: 'SUCCESS', result_url: '' } }, 't').outcome,
      'pending',
    );
  });

  void it('progress 100 with status in_progress is not completion (spec 3 rule 3)', () => {
    assert.equal(normaliseVideoStatus({ id: 'v', status: 'in_progress', progress: 100 }, 'v').outcome, 'pending');
  });

  void it('the result URL is found in url, video_url, video.url, data.result_url or metadata.url', () => {
    assert.equal(normaliseVideoStatus({ id: 'v', status: 'completed', video_url: '/v1/a' }, 'v').resultUrl, '/v1/a');
    assert.equal(
      normaliseVideoStatus({ id: 'v', status: 'completed', video: { url: '/v1/b' } }, 'v').resultUrl,
      '/v1/b',
    );
    assert.equal(
      normaliseVideoStatus({ id: 'v', status: 'completed', metadata: { url: 'https://cdn/x.mp4' } }, 'v').resultUrl,
      'https://cdn/x.mp4',
    );
    assert.equal(
      normaliseVideoStatus({ code: 'success', data: { task_id: 't', status: 'SUCCESS', result_url: '/v1/c' } }, 't')
        .resultUrl,
      '/v1/c',
    );
  });

  void it('relative /v1 URLs are prefixed with the video host; only http(s) absolute URLs are allowed', () => {
    assert.equal(
      resolveResultUrl('/v1/videos/x/content', 'https://video.example.com/v1').toString(),
      'https://video.example.com/v1/videos/x/content',
    );
    assert.equal(
      resolveResultUrl('/v1/videos/x/content', 'https://h.example.com/gw/v1').toString(),
      'https://h.example.com/gw/v1/videos/x/content',
    );
    assert.equal(
      resolveResultUrl('https://cdn.example.com/x.mp4', 'https://h/v1').toString(),
      'https://cdn.example.com/x.mp4',
    );
    assert.throws(() => resolveResultUrl('file:///etc/passwd', 'https://h/v1'), /only http/);
    assert.throws(() => resolveResultUrl('javascript:alert(1)', 'https://h/v1'), /only http/);
  });

  void it('creation ids: id first, then request_id, then task_id; none is an error', () => {
    assert.equal(videoIdFromCreation({ id: 'a', request_id: 'b', task_id: 'c' }), 'a');
    assert.equal(videoIdFromCreation({ request_id: 'b', task_id: 'c' }), 'b');
    assert.equal(videoIdFromCreation({ task_id: 'c' }), 'c');
    assert.throws(() => videoIdFromCreation({ status: 'queued' }), /no id/);
    assert.throws(() => videoIdFromCreation({ id: '../../etc' }), /not a video id/);
  });

  void it('ids with path characters are refused', () => {
    assert.equal(assertVideoId(' video_svc_v1_abc '), 'video_svc_v1_abc');
    assert.throws(() => assertVideoId('a/../b'));
    assert.throws(() => assertVideoId('%2e%2e'));
  });
});

void describe('download: the content route with the key, foreign links without it', () => {
  /*
   * Where a finished video is downloaded from, and who gets the key (spec 4 rules 2 and 6): the
   * content route of the video host with the key whenever the id is known; a result link on another
   * host only when that route answered 404 or JSON, and then without the key. The gateway's request
   * log (auth judged per request, the key itself never recorded) is the proof.
   */

  const CONTENT_ROUTE = '/v1/videos/:id/content';
  const FOREIGN_ROUTE = '/files/videos/:id.mp4';

  // Faults and the request log are cleared before each test.
  const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
  const tmp = useTempDir('gs-video-host-');
  let n = 0;

  function client(key = gw.keys.valid): VideoClient {
    return new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: key, maxRetries: 0, random: () => 0 }));
  }

  /** Runs one task end to end through the manager (create, poll, download) into a fresh folder. */
  async function runTask(
    prompt: string,
    o: { key?: string } = {},
  ): Promise<{ record: VideoTaskRecord; end: string; dir: string }> {
    const dir = join(tmp.path, `out-${++n}`);
    const manager = new VideoJobManager({
      api: client(o.key),
      store: new MemoryTaskStore(),
      pollIntervalMs: () => 10,
      pollLimit: () => 200,
      destination: () => Promise.resolve(dir),
    });
    const { record, done } = await manager.submit({ request: { model: 'vendor-image-video', prompt } });
    const end = await done;
    return { record: manager.get(record.key)!, end, dir };
  }

  const downloads = (): RecordedRequest[] =>
    gw.requests().filter((r) => r.route === CONTENT_ROUTE || r.route === FOREIGN_ROUTE);
  const who = (rs: RecordedRequest[]) => rs.map((r) => `${r.host} ${r.route} ${r.auth}`);

  function assertMp4(file: string | undefined): void {
    assert.ok(file, 'a file was saved');
    const head = readFileSync(file).subarray(4, 8).toString('latin1');
    assert.equal(head, 'ftyp', 'the saved file is an MP4');
  }

  /** A finished task's id (its requests then dropped from the log) and a fresh folder to save it in. */
  async function readyToDownload(c: VideoClient, prompt: string, label: string): Promise<{ id: string; dir: string }> {
    const id = await finishedVideo(c, prompt);
    gw.resetCounts();
    return { id, dir: tmp.fresh(label) };
  }

  void describe('video download: content route with the key, foreign links without it', () => {
    void it('a completed task with a relative result path is downloaded from the content route with the key', async () => {
      const { record, end } = await runTask('relative path');
      assert.equal(end, 'saved');
      assert.match(record.resultUrl ?? '', /^\/v1\/videos\/.+\/content$/);
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
      assertMp4(record.file);
    });

    void it('with an absolute result URL on another host and a working content route, the other host is never contacted', async () => {
      gw.fault({ contentUrl: 'other-host', times: -1 });
      const { record, end } = await runTask('foreign link, route fine');
      assert.equal(end, 'saved');
      assert.ok(record.resultUrl?.startsWith(`${gw.url}/files/videos/`), `status gave ${record.resultUrl}`);
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
      assertMp4(record.file);
    });

    void it('when the content route answers 404, the foreign link is downloaded without the key', async () => {
      gw.fault({ contentUrl: 'other-host', times: -1 });
      gw.fault({ match: { path: '/content' }, status: 404, times: -1 });
      const { record, end } = await runTask('foreign link, route 404');
      assert.equal(end, 'saved', JSON.stringify(record.error));
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
      assertMp4(record.file);
    });

    void it('when the content route answers JSON instead of a video, the foreign link is downloaded without the key', async () => {
      gw.fault({ contentUrl: 'other-host', times: -1 });
      gw.fault({ match: { path: '/content' }, contentJson: true, times: -1 });
      const { record, end } = await runTask('foreign link, route json');
      assert.equal(end, 'saved', JSON.stringify(record.error));
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
      assertMp4(record.file);
    });

    void it('legacy format: the temporary direct link in data.result_url still works when the relay has no content route', async () => {
      gw.fault({ statusFormat: 'legacy', contentUrl: 'other-host', times: -1 });
      gw.fault({ match: { path: '/content' }, status: 404, times: -1 });
      const { record, end } = await runTask('legacy direct link');
      assert.equal(end, 'saved', JSON.stringify(record.error));
      assert.equal(record.status, 'SUCCESS');
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
      assertMp4(record.file);
    });

    void it('legacy format with a relative result_url: the content route with the key', async () => {
      gw.fault({ statusFormat: 'legacy', times: -1 });
      const { record, end } = await runTask('legacy relative');
      assert.equal(end, 'saved', JSON.stringify(record.error));
      assert.equal(record.status, 'SUCCESS');
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
    });

    void it('a key the content route refuses (401) is reported, and the foreign link is not tried instead', async () => {
      const dir = join(tmp.path, `out-${++n}`);
      const id = await finishedVideo(client(), 'refused key');
      gw.resetCounts();
      gw.fault({ match: { path: '/content' }, status: 401, times: 1 });
      const err = await client()
        .download(`${gw.url}/files/videos/${id}.mp4?sig=1`, saveTo(join(dir, 'x.mp4')), { videoId: id })
        .then(
          () => assert.fail('expected a rejection'),
          (e: unknown) => e,
        );
      assert.ok(err instanceof GatewayError);
      assert.equal(err.kind, 'auth');
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
    });

    void it('when the content route and the foreign link both fail, the error names both and says to resume; nothing is saved', async () => {
      gw.fault({ contentUrl: 'other-host', times: -1 });
      gw.fault({ match: { path: '/content' }, status: 404, times: -1 });
      gw.fault({
        match: { path: '/files/' },
        status: 403,
        body: { error: { message: 'Request has expired', type: 'AccessDenied', code: 'AccessDenied' } },
        times: -1,
      });
      const { record, end, dir } = await runTask('both fail');
      assert.equal(end, 'error');
      // Each attempt tried the route (with the key) then the link (without it); a 403 is not retried.
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
      assert.equal(record.error?.kind, 'invalid_response');
      const host = new URL(gw.url).host;
      assert.match(
        record.error?.detail ?? '',
        new RegExp(
          `content route answered 404, and the result link on ${host.replace(/\./g, '\\.')} answered: HTTP 403`,
        ),
      );
      // The link's host is not the gateway: its body is not quoted (it would reach the model).
      assert.doesNotMatch(record.error?.detail ?? '', /Request has expired/);
      assert.match(record.error?.detail ?? '', /resume the task/i);
      assert.doesNotMatch(
        record.error?.detail ?? '',
        /permission|balance/i,
        'a link host 403 is not explained as a key or balance problem',
      );
      assert.deepEqual(readdirSync(dir), []);
    });

    void it('without an id, an absolute link on another host is fetched without the key', async () => {
      const c = client();
      const { id, dir } = await readyToDownload(c, 'no id given', 'noid');
      const d = await c.download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, saveTo(join(dir, 'v.mp4')));
      assert.ok(d.bytes > 0);
      assert.deepEqual(who(downloads()), [`chat ${FOREIGN_ROUTE} missing`]);
    });

    void it('a relative result path is resolved against the video base URL and carries the key', async () => {
      const c = client();
      const { id, dir } = await readyToDownload(c, 'relative, no id', 'rel');
      await c.download(`/v1/videos/${id}/content`, saveTo(join(dir, 'v.mp4')));
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
    });

    void it('an unusable result URL (file:) does not stop the download from the content route', async () => {
      const c = client();
      const { id, dir } = await readyToDownload(c, 'file url', 'file');
      const d = await c.download('file:///etc/passwd', saveTo(join(dir, 'v.mp4')), { videoId: id });
      assert.ok(d.bytes > 0);
      assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
    });
  });
});

// The download takes the spec's content route first, and the status's result link only as
// a fallback. Before this session the result link was the only way, so a relay whose content route
// is broken (5xx after retries) or refuses the id (400/405) but whose link works must still save the
// video; the link on another host still gets no key. Also: a task stored by the previous version
// (no saveDir) resumes its download and saves.
void describe('download: the result link as the fallback', () => {
  const gw = useGateway({ videoStepMs: 20, videoSteps: 3 });
  const tmp = useTempDir('gs-video-fallback-');

  const CONTENT_ROUTE = '/v1/videos/:id/content';
  const FOREIGN_ROUTE = '/files/videos/:id.mp4';

  const client = () =>
    new VideoClient(new HttpClient({ baseUrl: gw.videoUrl, apiKey: gw.keys.valid, maxRetries: 0, random: () => 0 }));
  const downloads = () =>
    gw
      .requests()
      .filter((r) => r.route === CONTENT_ROUTE || r.route === FOREIGN_ROUTE)
      .map((r) => `${r.host} ${r.route} ${r.auth}`);

  function assertMp4(file: string): void {
    assert.equal(readFileSync(file).subarray(4, 8).toString('latin1'), 'ftyp', `${file} is an MP4`);
  }

  void describe('video download fallback and records of the previous version', () => {
    for (const [label, status] of [
      ['500', 500],
      ['400', 400],
      ['405', 405],
    ] as const) {
      void it(`a content route answering ${label} falls back to the result link on another host, without the key`, async () => {
        const c = client();
        const id = await finishedVideo(c, `route ${label}`);
        const dir = tmp.fresh(`r${label}`);
        gw.resetCounts();
        gw.fault({ match: { path: '/content' }, status, times: -1 });
        const d = await c.download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, saveTo(join(dir, 'v.mp4')), {
          videoId: id,
        });
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
      const d = await c.download(`${gw.videoUrl}/v1/videos/${id}/content?download=1`, saveTo(join(dir, 'v.mp4')), {
        videoId: id,
      });
      assertMp4(d.file);
      assert.deepEqual(downloads(), [`video ${CONTENT_ROUTE} valid`, `video ${CONTENT_ROUTE} valid`]);
    });

    void it("when a 500 route and the link both fail, the error names the route's status and the link's answer", async () => {
      const c = client();
      const id = await finishedVideo(c, 'both broken');
      const dir = tmp.fresh('both');
      gw.fault({ match: { path: '/content' }, status: 500, times: -1 });
      gw.fault({ match: { path: '/files/' }, status: 403, times: -1 });
      const err = await c
        .download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, saveTo(join(dir, 'v.mp4')), { videoId: id })
        .then(
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
      const m = new VideoJobManager({
        api: client(),
        store,
        pollIntervalMs: () => 10,
        pollLimit: () => 200,
        destination: () => Promise.resolve(dir),
      });
      const [done] = m.resumeUnfinished();
      assert.ok(done, 'the stored task resumes');
      assert.equal(await done, 'saved', JSON.stringify(m.get('old-task')?.error));
      const rec = m.get('old-task')!;
      assert.equal(rec.saveDir, dir);
      assert.ok(rec.file && existsSync(rec.file));
      assertMp4(rec.file);
      assert.deepEqual(
        downloads(),
        [`video ${CONTENT_ROUTE} valid`],
        'the content route with the key; the old link is not needed',
      );
    });
  });
});
