import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GatewayError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { VideoClient } from '../../src/api/video';
import { VideoJobManager } from '../../src/video/core/manager';
import { MemoryTaskStore, type VideoTaskRecord } from '../../src/video/core/record';
import type { RecordedRequest } from '../gateway/server';
import { finishedVideo, useGateway, useTempDir } from './helpers';

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
async function runTask(prompt: string, o: { key?: string } = {}): Promise<{ record: VideoTaskRecord; end: string; dir: string }> {
  const dir = join(tmp.path, `out-${++n}`);
  const manager = new VideoJobManager({ api: client(o.key), store: new MemoryTaskStore(), pollIntervalMs: () => 10, pollLimit: () => 200, destination: () => Promise.resolve(dir) });
  const { record, done } = await manager.submit({ request: { model: 'vendor-image-video', prompt } });
  const end = await done;
  return { record: manager.get(record.key)!, end, dir };
}

const downloads = (): RecordedRequest[] => gw.requests().filter((r) => r.route === CONTENT_ROUTE || r.route === FOREIGN_ROUTE);
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
    const err = await client().download(`${gw.url}/files/videos/${id}.mp4?sig=1`, join(dir, 'x.mp4'), { videoId: id }).then(
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
    gw.fault({ match: { path: '/files/' }, status: 403, body: { error: { message: 'Request has expired', type: 'AccessDenied', code: 'AccessDenied' } }, times: -1 });
    const { record, end, dir } = await runTask('both fail');
    assert.equal(end, 'error');
    // Each attempt tried the route (with the key) then the link (without it); a 403 is not retried.
    assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`, `chat ${FOREIGN_ROUTE} missing`]);
    assert.equal(record.error?.kind, 'invalid_response');
    const host = new URL(gw.url).host;
    assert.match(record.error?.detail ?? '', new RegExp(`content route answered 404, and the result link on ${host.replace(/\./g, '\\.')} answered: .*Request has expired`));
    assert.match(record.error?.detail ?? '', /resume the task/i);
    assert.doesNotMatch(record.error?.detail ?? '', /permission|balance/i, 'a link host 403 is not explained as a key or balance problem');
    assert.deepEqual(readdirSync(dir), []);
  });

  void it('without an id, an absolute link on another host is fetched without the key', async () => {
    const c = client();
    const { id, dir } = await readyToDownload(c, 'no id given', 'noid');
    const d = await c.download(`${gw.url}/files/videos/${id}.mp4?sig=abc`, join(dir, 'v.mp4'));
    assert.ok(d.bytes > 0);
    assert.deepEqual(who(downloads()), [`chat ${FOREIGN_ROUTE} missing`]);
  });

  void it('a relative result path is resolved against the video base URL and carries the key', async () => {
    const c = client();
    const { id, dir } = await readyToDownload(c, 'relative, no id', 'rel');
    await c.download(`/v1/videos/${id}/content`, join(dir, 'v.mp4'));
    assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
  });

  void it('an unusable result URL (file:) does not stop the download from the content route', async () => {
    const c = client();
    const { id, dir } = await readyToDownload(c, 'file url', 'file');
    const d = await c.download('file:///etc/passwd', join(dir, 'v.mp4'), { videoId: id });
    assert.ok(d.bytes > 0);
    assert.deepEqual(who(downloads()), [`video ${CONTENT_ROUTE} valid`]);
  });
});
