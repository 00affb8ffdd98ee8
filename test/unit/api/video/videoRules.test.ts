import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  validateVideoRequest,
  referenceImageProblem,
  secondsChoices,
  rulesFor,
  type VideoCreateRequest,
} from '../../../../src/api/video/videoRules';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const img = (n: number) => Array.from({ length: n }, (_, i) => `https://images.example.com/ref-${i}.png`);

function rules(req: VideoCreateRequest) {
  const v = validateVideoRequest(req);
  return { errors: v.errors.map((e) => e.rule), warnings: v.warnings.map((w) => w.rule), v };
}

void test('an empty prompt is refused with the prompt rule named, before anything is sent', () => {
  const r = rules({ model: 'vendor-image-video', prompt: '   ' });
  assert.deepEqual(r.errors, ['prompt-required']);
  assert.match(r.v.errors[0]!.message, /prompt/i);
  assert.match(r.v.errors[0]!.message, /rule: prompt-required/);
});

void test('an empty model is refused with the model rule', () => {
  assert.deepEqual(rules({ model: '', prompt: 'a cat' }).errors, ['model-required']);
});

void test('vendor-image-video allows text-to-video, one image and up to seven images', () => {
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'a cat' }).errors, []);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'a cat', image_urls: img(1) }).errors, []);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'a cat', image_urls: img(7) }).errors, []);
});

void test('vendor-image-video refuses an eighth reference image', () => {
  const r = rules({ model: 'vendor-image-video', prompt: 'a cat', image_urls: img(8) });
  assert.deepEqual(r.errors, ['reference-count']);
  assert.match(r.v.errors[0]!.message, /at most 7/);
});

void test('vendor-video-1.5 refuses text-to-video with the spec message about exactly one image', () => {
  const r = rules({ model: 'vendor-video-1.5', prompt: 'a cat' });
  assert.deepEqual(r.errors, ['text-to-video']);
  assert.match(r.v.errors[0]!.message, /only supports exactly one reference image/);
});

void test('vendor-video-1.5 refuses two reference images and accepts exactly one', () => {
  const two = rules({ model: 'vendor-video-1.5', prompt: 'a cat', image_urls: img(2) });
  assert.deepEqual(two.errors, ['reference-count']);
  assert.match(two.v.errors[0]!.message, /only supports exactly one reference image; 2 given/);
  assert.deepEqual(rules({ model: 'vendor-video-1.5', prompt: 'a cat', image_urls: img(1) }).errors, []);
});

void test('image_urls and images together are refused as a mutually exclusive pair', () => {
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', image_urls: img(1), images: img(1) }).errors, [
    'images-exclusive',
  ]);
});

void test('input_reference and reference_images together are refused as a mutually exclusive pair', () => {
  const r = rules({
    model: 'vendor-image-video',
    prompt: 'x',
    input_reference: { image_url: img(1)[0]! },
    reference_images: img(1),
  });
  assert.deepEqual(r.errors, ['reference-exclusive']);
});

void test('reference images count across every field, so input_reference plus image_urls makes two for vendor-video-1.5', () => {
  const r = rules({ model: 'vendor-video-1.5', prompt: 'x', input_reference: img(1)[0]!, image_urls: img(1) });
  assert.deepEqual(r.errors, ['reference-count']);
});

void test('seconds above 15 are refused for both models and for unknown models', () => {
  for (const model of ['vendor-image-video', 'vendor-video-1.5', 'someone-else-video']) {
    const images = model === 'vendor-video-1.5' ? img(1) : undefined;
    const r = rules({ model, prompt: 'x', seconds: 16, image_urls: images });
    assert.deepEqual(r.errors, ['seconds-max'], model);
  }
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', seconds: 15 }).errors, []);
});

void test('seconds must be a whole number of at least 1', () => {
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', seconds: 0 }).errors, ['seconds-integer']);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', seconds: 4.5 }).errors, ['seconds-integer']);
});

void test('with several references vendor-image-video clamps 15 s to 10 s with a warning, not an error', () => {
  const r = rules({ model: 'vendor-image-video', prompt: 'x', seconds: 15, image_urls: img(3) });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, ['seconds-multi-clamp']);
  assert.equal(r.v.request.seconds, 10);
  assert.match(r.v.warnings[0]!.message, /10 s/);
});

void test('with one reference vendor-image-video keeps 15 s unclamped', () => {
  const r = rules({ model: 'vendor-image-video', prompt: 'x', seconds: 15, image_urls: img(1) });
  assert.deepEqual(r.warnings, []);
  assert.equal(r.v.request.seconds, 15);
});

void test('a duration outside the suggested list is sent with a warning', () => {
  const r = rules({ model: 'vendor-image-video', prompt: 'x', seconds: 5 });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, ['seconds-suggested']);
});

void test('vendor-video-1.5 allows only 16:9 and 9:16', () => {
  assert.deepEqual(rules({ model: 'vendor-video-1.5', prompt: 'x', image_urls: img(1), aspect_ratio: '1:1' }).errors, [
    'aspect-ratio-model',
  ]);
  assert.deepEqual(
    rules({ model: 'vendor-video-1.5', prompt: 'x', image_urls: img(1), aspect_ratio: '9:16' }).errors,
    [],
  );
});

void test('vendor-image-video allows the seven aspect ratios of the spec and refuses others', () => {
  for (const a of ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3']) {
    assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', aspect_ratio: a }).errors, [], a);
  }
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', aspect_ratio: '21:9' }).errors, [
    'aspect-ratio-model',
  ]);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', aspect_ratio: 'wide' }).errors, [
    'aspect-ratio-format',
  ]);
});

void test('resolution 720p and 480p pass, 1080p warns, "big" is refused', () => {
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', resolution: '480p' }).warnings, []);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', resolution: '1080p' }).warnings, [
    'resolution-common',
  ]);
  assert.deepEqual(rules({ model: 'vendor-image-video', prompt: 'x', resolution: 'big' }).errors, [
    'resolution-format',
  ]);
});

void test('an unknown model gets only the general rules: no image count or aspect-ratio table', () => {
  assert.equal(rulesFor('acme-video').known, false);
  const r = rules({ model: 'acme-video', prompt: 'x', image_urls: img(9), aspect_ratio: '21:9' });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(rules({ model: 'acme-video', prompt: '', image_urls: img(1), images: img(1) }).errors, [
    'prompt-required',
    'images-exclusive',
  ]);
});

void test('reference images must be HTTPS links or complete base64 data URLs', () => {
  assert.equal(referenceImageProblem('https://a.example/x.png'), undefined);
  assert.equal(referenceImageProblem(PNG), undefined);
  assert.match(referenceImageProblem('http://a.example/x.png') ?? '', /HTTPS/);
  assert.match(referenceImageProblem('data:image/png;base64,iVBORw0KGgo') ?? '', /incomplete/);
  assert.match(referenceImageProblem('data:text/plain;base64,aGVsbG8=') ?? '', /complete base64 image/);
  assert.match(referenceImageProblem('/tmp/cat.png') ?? '', /neither/);
  const r = rules({ model: 'vendor-image-video', prompt: 'x', image_urls: ['ftp://a.example/x.png'] });
  assert.deepEqual(r.errors, ['reference-image-format']);
});

void test('duration choices follow the model and the number of references', () => {
  assert.deepEqual(secondsChoices('vendor-image-video', 0), [4, 6, 8, 10, 12, 15]);
  assert.deepEqual(secondsChoices('vendor-image-video', 3), [4, 6, 8, 10]);
  assert.deepEqual(secondsChoices('vendor-video-1.5', 1), [4, 6, 8, 10, 12, 15]);
});
