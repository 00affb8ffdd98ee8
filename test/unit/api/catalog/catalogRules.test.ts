// Each family's case is built from its documentation's own example request (the sources are in
// src/api/catalog/README.md), then bent one field at a time to what the family refuses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { familyFor, shippedCatalog } from '../../../../src/api/catalog/catalog';
import {
  isLocalImage,
  validateCatalogImage,
  validateCatalogVideo,
  type CatalogImageRequest,
  type CatalogVideoRequest,
} from '../../../../src/api/catalog/catalogRules';

const catalog = shippedCatalog();
const rules = (v: { errors: { rule: string }[] }) => v.errors.map((e) => e.rule);

function video(r: CatalogVideoRequest): string[] {
  return rules(validateCatalogVideo(familyFor(catalog, r.model, 'video'), r));
}
function image(r: CatalogImageRequest): string[] {
  return rules(validateCatalogImage(familyFor(catalog, r.model, 'image'), r));
}

const A = 'https://example.com/first.png';
const B = 'https://example.com/last.png';
const DATA = 'data:image/png;base64,iVBORw0KGgo=';

void describe('video families', () => {
  void it('Kling: the image-to-video example with image_tail passes; 7 s and 4:3 do not', () => {
    const ok: CatalogVideoRequest = {
      model: 'kling-v1',
      prompt: 'an astronaut stands up and starts walking',
      firstFrame: A,
      lastFrame: DATA,
      mode: 'pro',
      seconds: 5,
      aspectRatio: '16:9',
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ ...ok, seconds: 7 }), ['seconds-family']);
    assert.deepEqual(video({ ...ok, aspectRatio: '4:3' }), ['aspect-ratio-family']);
    assert.deepEqual(video({ ...ok, mode: 'ultra' }), ['mode-family']);
    assert.deepEqual(video({ ...ok, resolution: '720p' }), ['resolution-unsupported']);
  });

  void it('Seedance: first and last frame at 1080p for 5 s pass; frames with references do not', () => {
    const ok: CatalogVideoRequest = {
      model: 'doubao-seedance-1-0-pro-250528',
      prompt: 'a cat yawns at the camera',
      firstFrame: A,
      lastFrame: B,
      resolution: '1080p',
      aspectRatio: 'adaptive',
      seconds: 5,
      audio: true,
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ ...ok, references: [A] }), ['frames-or-references']);
    assert.deepEqual(video({ ...ok, seconds: 15 }), ['seconds-family']);
    assert.deepEqual(video({ ...ok, firstFrame: undefined }), ['last-needs-first']);
    assert.deepEqual(video({ model: 'doubao-seedance-1-0-lite-i2v', prompt: 'p', references: [A, B, A, B, A] }), [
      'reference-count',
    ]);
  });

  void it('Veo: 8 s 16:9 1080p passes; 5 s, 1:1 and a last frame do not', () => {
    const ok: CatalogVideoRequest = {
      model: 'veo-3.1-generate-preview',
      prompt: 'a close up of two people staring at a cryptic drawing on a wall',
      seconds: 8,
      aspectRatio: '16:9',
      resolution: '1080p',
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ ...ok, seconds: 5 }), ['seconds-family']);
    assert.deepEqual(video({ ...ok, aspectRatio: '1:1' }), ['aspect-ratio-family']);
    assert.deepEqual(video({ ...ok, firstFrame: A, lastFrame: B }), ['lastFrame-unsupported']);
  });

  void it('Wan: the first-and-last-frame example with URLs passes; a local file or base64 is refused with the reason', () => {
    const ok: CatalogVideoRequest = {
      model: 'wan2.1-kf2v-plus',
      prompt: 'a small black cat looks up at the sky',
      firstFrame: 'https://wanx.alicdn.com/material/20250318/first_frame.png',
      lastFrame: 'https://wanx.alicdn.com/material/20250318/last_frame.png',
      resolution: '720P',
      seconds: 5,
      audio: true,
    };
    assert.deepEqual(video(ok), []);
    const local = validateCatalogVideo(familyFor(catalog, ok.model), { ...ok, firstFrame: 'images/cat.png' });
    assert.deepEqual(rules(local), ['image-input']);
    assert.match(local.errors[0]!.message, /local image: Wan takes image URLs only .*nothing is uploaded/);
    assert.deepEqual(video({ ...ok, lastFrame: DATA }), ['image-input']);
    assert.deepEqual(video({ ...ok, resolution: '720p' }), ['resolution-family']);
    assert.deepEqual(video({ ...ok, references: [A] }), ['references-unsupported']);
  });

  void it('Hailuo: MiniMax-Hailuo-02 at 1080P for 6 s passes; 8 s does not', () => {
    const ok: CatalogVideoRequest = {
      model: 'MiniMax-Hailuo-02',
      prompt: 'A man picks up a book [Pedestal up], then reads [Static shot].',
      firstFrame: A,
      seconds: 6,
      resolution: '1080P',
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ ...ok, seconds: 8 }), ['seconds-family']);
    assert.deepEqual(video({ ...ok, aspectRatio: '16:9' }), ['aspectRatio-unsupported']);
  });

  void it('Vidu: start-end at 720p for 4 s passes; two references or eight do not', () => {
    const ok: CatalogVideoRequest = {
      model: 'viduq1',
      prompt: 'the camera pushes in',
      firstFrame: A,
      lastFrame: B,
      seconds: 4,
      resolution: '720p',
      audio: false,
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ model: 'viduq1', prompt: 'p', references: [A, B] }), ['reference-count']);
    assert.deepEqual(video({ model: 'viduq1', prompt: 'p', references: Array(8).fill(A) }), ['reference-count']);
    assert.deepEqual(video({ model: 'viduq1', prompt: 'p', references: [A, B, A] }), []);
  });

  void it('/v1/videos: a local file goes as the input_reference part; 10 s does not pass', () => {
    const ok: CatalogVideoRequest = {
      model: 'sora-2',
      prompt: 'p',
      seconds: 8,
      size: '1280x720',
      references: ['shot.png'],
    };
    assert.deepEqual(video(ok), []);
    assert.deepEqual(video({ ...ok, seconds: 10 }), ['seconds-family']);
  });

  void it('a model the catalog does not know gets the general checks, as before', () => {
    assert.deepEqual(video({ model: 'vendor-image-video', prompt: 'p', seconds: 15, aspectRatio: '16:9' }), []);
    assert.deepEqual(video({ model: 'some-new-video', prompt: 'p', seconds: 16 }), ['seconds-max']);
    assert.deepEqual(video({ model: 'vendor-video-1.5', prompt: 'p' }), ['text-to-video']);
  });

  void it('tells a local path from a link or data', () => {
    assert.equal(isLocalImage('a/b.png'), true);
    assert.equal(isLocalImage('/abs/b.png'), true);
    assert.equal(isLocalImage(A), false);
    assert.equal(isLocalImage(DATA), false);
  });
});

void describe('image families', () => {
  void it('gpt-image: the documented request passes; n over 10, a size it lacks or a bad quality do not', () => {
    const ok: CatalogImageRequest = {
      model: 'gpt-image-1',
      prompt: "A children's book drawing of a veterinarian using a stethoscope",
      size: '1024x1536',
      quality: 'high',
      n: 4,
      background: 'transparent',
      outputFormat: 'png',
    };
    assert.deepEqual(image(ok), []);
    assert.deepEqual(image({ ...ok, n: 11 }), ['n-max']);
    assert.deepEqual(image({ ...ok, n: 0 }), ['n-integer']);
    assert.deepEqual(image({ ...ok, size: '512x512' }), ['size-family']);
    assert.deepEqual(image({ ...ok, quality: 'hd' }), ['quality-family']);
    assert.deepEqual(image({ ...ok, edit: true, images: [A], mask: B }), []);
    assert.deepEqual(image({ ...ok, edit: true, images: Array(17).fill(A) }), ['edit-image-count']);
    assert.deepEqual(image({ ...ok, edit: true }), ['edit-image-required']);
  });

  void it('Seedream: 2K with reference images passes, and any WxH; n over 1 does not', () => {
    const ok: CatalogImageRequest = { model: 'doubao-seedream-4-0-250828', prompt: 'p', size: '2K', images: [A, DATA] };
    assert.deepEqual(image(ok), []);
    assert.deepEqual(image({ ...ok, size: '3000x2000' }), []);
    assert.deepEqual(image({ ...ok, size: 'huge' }), ['size-family']);
    assert.deepEqual(image({ ...ok, n: 2 }), ['n-max']);
    assert.deepEqual(image({ ...ok, images: Array(11).fill(A) }), ['reference-count']);
    assert.deepEqual(image({ ...ok, quality: 'high' }), ['quality-unsupported']);
  });

  void it('Flux: one image, no mask on an edit', () => {
    const ok: CatalogImageRequest = { model: 'flux-kontext-pro', prompt: 'p', size: '1024x1024', outputFormat: 'jpeg' };
    assert.deepEqual(image(ok), []);
    assert.deepEqual(image({ ...ok, n: 2 }), ['n-max']);
    assert.deepEqual(image({ ...ok, edit: true, images: [A], mask: B }), ['mask-unsupported']);
    assert.deepEqual(image({ ...ok, outputFormat: 'webp' }), ['format-family']);
  });

  void it('an image model the catalog does not know: prompt, n up to 10 and a WxH size', () => {
    assert.deepEqual(image({ model: 'my-image', prompt: 'p', n: 10, size: '640x480' }), []);
    assert.deepEqual(image({ model: 'my-image', prompt: ' ', n: 11, size: 'big' }), [
      'prompt-required',
      'n-max',
      'size-format',
    ]);
    assert.deepEqual(image({ model: '', prompt: 'p' }), ['model-required']);
  });
});
