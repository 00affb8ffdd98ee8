import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  GALLERY_ACTIONS,
  GALLERY_IMAGE_ACTIONS,
  galleryHostMessageSchema as host,
  galleryWebviewMessageSchema as webview,
  type GalleryForm,
  type GalleryTask,
} from '../../../../src/shared/protocol/gallery';
import { accepts, acceptsEvery, refusal } from '../../../support/protocolCheck';

const task: GalleryTask = {
  key: 'task-1',
  videoId: 'video_123',
  prompt: 'a lighthouse at dusk',
  model: 'gw-video',
  seconds: 4,
  aspectRatio: '16:9',
  resolution: '720p',
  images: ['refs/shore.png'],
  state: 'saved',
  stateLabel: 'completed',
  progress: 100,
  cost: 'Estimate ¥0.80',
  createdAt: 1,
  finishedAt: 2,
  file: 'videos/lighthouse.mp4',
  src: 'https://file+.vscode-resource.vscode-cdn.net/w/videos/lighthouse.mp4',
  poster: 'https://file+.vscode-resource.vscode-cdn.net/posters/task-1.png',
  running: false,
  canResume: false,
};
const image = {
  name: 'a-red-kite-1a2b3c4d.png',
  file: 'images/a-red-kite-1a2b3c4d.png',
  src: 'https://file+.vscode-resource.vscode-cdn.net/w/images/a-red-kite-1a2b3c4d.png?v=1',
  prompt: 'a red kite',
  model: 'gpt-image-1',
  operation: 'generate',
  bytes: 1234,
  createdAt: 5,
};
const form: GalleryForm = { model: 'gw-video', prompt: 'again', images: [], models: ['gw-video'], from: 'task-1' };
const png = 'data:image/png;base64,iVBORw0KGgo=';

void test('every gallery message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    {
      type: 'gallery/state',
      tasks: [task, { ...task, key: 'task-2', state: 'failed', failure: 'moderation', costFlag: 'charged anyway' }],
    },
    { type: 'gallery/state', tasks: [], images: [image] },
    { type: 'gallery/form', form },
    { type: 'gallery/notice', text: 'Started.', error: false, closeForm: true },
    { type: 'gallery/strings', strings: { Videos: '视频' } },
  ]);
  acceptsEvery(webview, [
    { type: 'webview/ready' },
    { type: 'gallery/action', key: 'task-1', action: 'open' },
    { type: 'gallery/poster', key: 'task-1', dataUrl: png },
    { type: 'gallery/frame', key: 'task-1', time: 1.5, dataUrl: 'data:image/jpeg;base64,/9j/4AAQ' },
    { type: 'gallery/generate', form },
    { type: 'gallery/imageAction', name: 'a-red-kite-1a2b3c4d.png', action: 'edit' },
  ]);
});

void test('an image action names an image by its file name and is one of the four', () => {
  for (const action of GALLERY_IMAGE_ACTIONS) accepts(webview, { type: 'gallery/imageAction', name: 'a.png', action });
  assert.match(
    refusal(webview, { type: 'gallery/imageAction', name: 'a.png', action: 'rerun' }),
    /^action: Invalid option/,
  );
  assert.match(refusal(webview, { type: 'gallery/imageAction', name: '', action: 'open' }), /^name: Too small/);
  assert.match(
    refusal(host, { type: 'gallery/state', tasks: [], images: [{ ...image, src: undefined }] }),
    /^images\.0\.src: Invalid input/,
  );
});

void test('each gallery action is accepted for a task, another word is refused', () => {
  for (const action of GALLERY_ACTIONS) accepts(webview, { type: 'gallery/action', key: 'task-1', action });
  assert.match(
    refusal(webview, { type: 'gallery/action', key: 'task-1', action: 'upload' }),
    /^action: Invalid option/,
  );
  assert.match(refusal(webview, { type: 'gallery/action', key: '', action: 'open' }), /^key: Too small/);
  assert.match(
    refusal(webview, { type: 'gallery/action', key: 'k'.repeat(201), action: 'open' }),
    /^key: Too big.*<=200/,
  );
  assert.equal(
    refusal(webview, { type: 'gallery/action', action: 'open' }),
    'key: Invalid input: expected string, received undefined',
  );
});

void test('a captured frame is a base64 PNG or JPEG data URL and nothing else', () => {
  const poster = (dataUrl: string) => ({ type: 'gallery/poster', key: 'task-1', dataUrl });
  for (const bad of [
    'data:image/svg+xml;base64,PHN2Zz4=',
    'data:text/html;base64,PGI+',
    'https://example.com/a.png',
    'data:image/png;base64,iVBOR w0KGgo=',
  ])
    assert.match(refusal(webview, poster(bad)), /^dataUrl: Invalid string: must match pattern/, bad);
  assert.match(
    refusal(webview, { type: 'gallery/frame', key: 'task-1', dataUrl: png }),
    /^time: Invalid input: expected number/,
  );
});

void test("a form's texts are at most 20,000 characters, and a task's state is one of the record's", () => {
  const long = 'p'.repeat(20_001);
  assert.match(
    refusal(webview, { type: 'gallery/generate', form: { ...form, prompt: long } }),
    /^form\.prompt: Too big.*<=20000/,
  );
  assert.match(
    refusal(webview, { type: 'gallery/generate', form: { ...form, images: [long] } }),
    /^form\.images\.0: Too big/,
  );
  assert.match(
    refusal(webview, { type: 'gallery/generate', form: { ...form, models: undefined } }),
    /^form\.models: Invalid input/,
  );
  assert.match(
    refusal(host, { type: 'gallery/state', tasks: [{ ...task, state: 'done' }] }),
    /^tasks\.0\.state: Invalid option/,
  );
  assert.match(
    refusal(host, { type: 'gallery/state', tasks: [{ ...task, running: undefined }] }),
    /^tasks\.0\.running: Invalid input/,
  );
  assert.match(
    refusal(host, { type: 'gallery/strings', strings: { Videos: 1 } }),
    /^strings\.Videos: Invalid input: expected string/,
  );
});
