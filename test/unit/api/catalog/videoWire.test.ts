import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { familyFor, shippedCatalog } from '../../../../src/api/catalog/catalog';
import type { CatalogVideoRequest } from '../../../../src/api/catalog/catalogRules';
import { setPath, videoWire } from '../../../../src/api/catalog/videoWire';

const catalog = shippedCatalog();
const wire = (r: CatalogVideoRequest) => videoWire(familyFor(catalog, r.model, 'video'), r);
const A = 'https://example.com/a.png';
const B = 'https://example.com/b.png';

void describe('video request shapes', () => {
  void it('Kling: duration, mode and image on top, aspect_ratio, image_tail and sound under metadata', () => {
    assert.deepEqual(
      wire({
        model: 'kling-v2-6',
        prompt: ' p ',
        seconds: 10,
        mode: 'pro',
        aspectRatio: '9:16',
        firstFrame: A,
        lastFrame: B,
        audio: true,
      }),
      {
        path: '/video/generations',
        json: {
          model: 'kling-v2-6',
          prompt: 'p',
          duration: 10,
          mode: 'pro',
          image: A,
          metadata: { aspect_ratio: '9:16', image_tail: B, sound: 'on' },
        },
      },
    );
  });

  void it('Wan: first_frame_url, last_frame_url and the audio flag under metadata, the resolution as size', () => {
    assert.deepEqual(
      wire({
        model: 'wan2.5-i2v-preview',
        prompt: 'p',
        seconds: 5,
        resolution: '720P',
        firstFrame: A,
        lastFrame: B,
        audio: false,
      }),
      {
        path: '/video/generations',
        json: {
          model: 'wan2.5-i2v-preview',
          prompt: 'p',
          duration: 5,
          size: '720P',
          metadata: { audio: false, first_frame_url: A, last_frame_url: B },
        },
      },
    );
  });

  void it('Seedance: frames as content items with their roles, ratio and resolution under metadata', () => {
    const w = wire({
      model: 'doubao-seedance-1-0-pro',
      prompt: 'p',
      firstFrame: A,
      lastFrame: B,
      aspectRatio: '16:9',
      resolution: '1080p',
    });
    assert.equal(w.path, '/video/generations');
    if (w.path !== '/video/generations') return;
    assert.deepEqual(w.json.metadata, {
      ratio: '16:9',
      resolution: '1080p',
      content: [
        { type: 'image_url', image_url: { url: A }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: B }, role: 'last_frame' },
      ],
    });
  });

  void it('Veo: durationSeconds, aspectRatio, resolution and generateAudio under metadata', () => {
    const w = wire({
      model: 'veo-3.0-generate-001',
      prompt: 'p',
      seconds: 8,
      aspectRatio: '16:9',
      resolution: '720p',
      audio: true,
    });
    assert.deepEqual(w.path === '/video/generations' && w.json.metadata, {
      durationSeconds: 8,
      aspectRatio: '16:9',
      resolution: '720p',
      generateAudio: true,
    });
  });

  void it('Vidu: start and end frames are images[0] and images[1]; bgm is the audio flag', () => {
    const w = wire({ model: 'viduq1', prompt: 'p', firstFrame: A, lastFrame: B, resolution: '1080p', audio: true });
    assert.deepEqual(w.path === '/video/generations' && w.json, {
      model: 'viduq1',
      prompt: 'p',
      size: '1080p',
      images: [A, B],
      metadata: { bgm: true },
    });
  });

  void it('Hailuo: first_frame_image and resolution under metadata', () => {
    const w = wire({ model: 'MiniMax-Hailuo-02', prompt: 'p', firstFrame: A, seconds: 6, resolution: '768P' });
    assert.deepEqual(w.path === '/video/generations' && w.json.metadata, { resolution: '768P', first_frame_image: A });
  });

  void it('/v1/videos: form fields and the reference as the input_reference file part', () => {
    assert.deepEqual(wire({ model: 'sora-2', prompt: 'p', seconds: 8, size: '1280x720', references: ['shot.png'] }), {
      path: '/videos',
      fields: { model: 'sora-2', prompt: 'p', seconds: '8', size: '1280x720' },
      files: { input_reference: 'shot.png' },
    });
  });

  void it('an unknown model: the plain unified fields', () => {
    assert.deepEqual(wire({ model: 'x-video', prompt: 'p', seconds: 4, firstFrame: A, references: [B] }), {
      path: '/video/generations',
      json: { model: 'x-video', prompt: 'p', duration: 4, images: [A, B] },
    });
  });

  void it('setPath replaces a non-object on the way', () => {
    const b: Record<string, unknown> = { metadata: 'x' };
    setPath(b, 'metadata.a.b', 1);
    assert.deepEqual(b, { metadata: { a: { b: 1 } } });
  });
});
