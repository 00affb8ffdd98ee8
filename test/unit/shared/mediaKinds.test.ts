import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMediaKind, mediaEntries } from '../../../src/shared/mediaKinds';

const videos = [
  { key: 'v2', createdAt: 300 },
  { key: 'v1', createdAt: 100 },
];
const images = [
  { name: 'i2.png', createdAt: 200 },
  { name: 'i1.png', createdAt: 100 },
];
const ids = (es: ReturnType<typeof mediaEntries<(typeof videos)[0], (typeof images)[0]>>) =>
  es.map((e) => (e.kind === 'video' ? e.item.key : e.item.name));

void test('all merges videos and images newest first; a tie keeps the video first', () => {
  assert.deepEqual(ids(mediaEntries(videos, images, 'all')), ['v2', 'i2.png', 'v1', 'i1.png']);
});

void test('images shows only images, videos only videos, each in its own order', () => {
  assert.deepEqual(ids(mediaEntries(videos, images, 'images')), ['i2.png', 'i1.png']);
  assert.deepEqual(ids(mediaEntries(videos, images, 'videos')), ['v2', 'v1']);
  assert.deepEqual(
    mediaEntries(videos, images, 'images').map((e) => e.kind),
    ['image', 'image'],
  );
});

void test('empty lists give nothing, whatever the filter', () => {
  for (const k of ['all', 'images', 'videos'] as const) assert.deepEqual(mediaEntries([], [], k), []);
});

void test('a saved filter from an older page is checked before use', () => {
  assert.equal(isMediaKind('images'), true);
  assert.equal(isMediaKind('running'), false);
  assert.equal(isMediaKind(undefined), false);
});
