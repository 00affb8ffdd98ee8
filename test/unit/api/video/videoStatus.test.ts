// Video ids, progress and statuses in both formats, result URLs, and the first bytes of a video.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertVideoId,
  looksLikeVideo,
  normaliseVideoStatus,
  parseProgress,
  resolveResultUrl,
  videoIdFromCreation,
} from '../../../../src/api/video/videoStatus';
import { gatewayFailure } from '../../../support/helpers';

const fails = (f: () => unknown) => gatewayFailure(Promise.resolve().then(f));

void test('ids are one safe path segment', async () => {
  assert.equal(assertVideoId(' video_1.a:b-c '), 'video_1.a:b-c');
  for (const bad of ['../models', 'a/b', '', 'a..b', 'x'.repeat(201)])
    assert.equal((await fails(() => assertVideoId(bad))).kind, 'validation', bad);
});

void test('the creation id is id, else request_id, else task_id; none is invalid_response', async () => {
  assert.equal(videoIdFromCreation({ id: 'a', request_id: 'b' }), 'a');
  assert.equal(videoIdFromCreation({ request_id: 'b', task_id: 'c' }), 'b');
  assert.equal(videoIdFromCreation({ data: { task_id: 'd' } }), 'd');
  assert.equal((await fails(() => videoIdFromCreation({}))).kind, 'invalid_response');
});

void test('progress strings and numbers become 0-100', () => {
  assert.equal(parseProgress('30%'), 30);
  assert.equal(parseProgress(' 42 '), 42);
  assert.equal(parseProgress(150), 100);
  assert.equal(parseProgress('soon'), undefined);
});

void test('the legacy format: SUCCESS with a result URL completes, without one keeps polling', () => {
  const done = normaliseVideoStatus(
    { code: 'success', data: { task_id: 't', status: 'SUCCESS', progress: '100%', result_url: '/v1/x' } },
    'f',
  );
  assert.deepEqual(
    [done.id, done.outcome, done.progress, done.resultUrl, done.format],
    ['t', 'completed', 100, '/v1/x', 'legacy'],
  );
  assert.equal(normaliseVideoStatus({ data: { task_id: 't', status: 'SUCCESS' } }, 'f').outcome, 'pending');
  assert.equal(normaliseVideoStatus({ data: { task_id: 't', status: 'NOT_START' } }, 'f').outcome, 'pending');
  assert.equal(normaliseVideoStatus({ message: 'no', data: { status: 'FAILURE' } }, 'f').failReason, 'no');
});

void test('the current format: the status field decides, the URL may sit in several places', () => {
  const s = normaliseVideoStatus({ status: 'completed', video: { url: 'https://cdn/x.mp4' } }, 'f');
  assert.deepEqual([s.id, s.outcome, s.resultUrl, s.format], ['f', 'completed', 'https://cdn/x.mp4', 'current']);
  assert.equal(
    normaliseVideoStatus({ status: 'failed', progress: 100, error: { message: 'boom' } }, 'f').outcome,
    'failed',
  );
  assert.equal(normaliseVideoStatus({ status: 'canceled' }, 'f').outcome, 'cancelled');
  assert.equal(normaliseVideoStatus({ status: 'processing' }, 'f').outcome, 'pending');
});

void test('result URLs: /v1 paths from the host root, others under /v1, only http(s)', async () => {
  assert.equal(
    resolveResultUrl('/v1/videos/a/content', 'https://gw.test/v1').href,
    'https://gw.test/v1/videos/a/content',
  );
  assert.equal(resolveResultUrl('videos/a', 'https://gw.test/v1').href, 'https://gw.test/v1/videos/a');
  assert.equal(
    (await fails(() => resolveResultUrl('file:///etc/passwd', 'https://gw.test/v1'))).kind,
    'invalid_response',
  );
  assert.equal((await fails(() => resolveResultUrl('//cdn/x', 'https://gw.test/v1'))).kind, 'invalid_response');
});

void test('an MP4 or WebM start is a video; JSON is not', () => {
  assert.equal(looksLikeVideo(new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70])), true);
  assert.equal(looksLikeVideo(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])), true);
  assert.equal(looksLikeVideo(new TextEncoder().encode('{"error":1}')), false);
});
