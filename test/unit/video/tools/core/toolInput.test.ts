import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  GENERATE_VIDEO_JSON_SCHEMA,
  VIDEO_STATUS_JSON_SCHEMA,
  generateVideoInputSchema,
  parseToolInput,
  videoStatusInputSchema,
} from '../../../../../src/video/tools/core/toolInput';

void describe('the video tools’ inputs', () => {
  void it('a wrong input shape becomes input-<field> rules, and a good one parses', () => {
    const bad = parseToolInput(generateVideoInputSchema, { prompt: 3, images: 'x.png' });
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.deepEqual(bad.issues.map((i) => i.rule).sort(), ['input-images', 'input-prompt']);
    const good = parseToolInput(generateVideoInputSchema, { prompt: 'p', seconds: 4, images: ['a.png'] });
    assert.ok(good.ok);
  });

  void it('a good generate input comes back as given, the optional fields left out', () => {
    const r = parseToolInput(generateVideoInputSchema, { prompt: 'a fox', aspectRatio: '9:16', resolution: '480p' });
    assert.deepEqual(r, { ok: true, value: { prompt: 'a fox', aspectRatio: '9:16', resolution: '480p' } });
  });

  void it('each issue names its field and what was expected, in the form of the request rules', () => {
    const r = parseToolInput(generateVideoInputSchema, { prompt: 'p', seconds: '5', images: ['a.png', 7] });
    assert.equal(r.ok, false);
    if (r.ok) return;
    const seconds = r.issues.find((i) => i.rule === 'input-seconds');
    assert.deepEqual(seconds, {
      rule: 'input-seconds',
      field: 'seconds',
      message: 'seconds: expected number (rule: input-seconds)',
    });
    // A nested field keeps its path; the rule is named after the top-level field.
    const image = r.issues.find((i) => i.rule === 'input-images');
    assert.equal(image?.field, 'images.1');
    assert.match(image!.message, /^images\.1: expected string \(rule: input-images\)$/);
  });

  void it('an input that is no object at all is one input-shape issue on "input"', () => {
    for (const input of [undefined, null, 'a fox', 42]) {
      const r = parseToolInput(generateVideoInputSchema, input);
      assert.equal(r.ok, false, String(input));
      if (!r.ok) {
        assert.equal(r.issues.length, 1);
        assert.equal(r.issues[0]?.rule, 'input-shape');
        assert.equal(r.issues[0]?.field, 'input');
      }
    }
  });

  void it('the status input: id and limit are optional; a limit that is text is refused', () => {
    assert.deepEqual(parseToolInput(videoStatusInputSchema, {}), { ok: true, value: {} });
    assert.deepEqual(parseToolInput(videoStatusInputSchema, { id: 'video_svc_v1_a', limit: 3 }), {
      ok: true,
      value: { id: 'video_svc_v1_a', limit: 3 },
    });
    const bad = parseToolInput(videoStatusInputSchema, { limit: 'all' });
    assert.equal(bad.ok, false);
    if (!bad.ok)
      assert.deepEqual(
        bad.issues.map((i) => i.rule),
        ['input-limit'],
      );
  });

  void it('the JSON Schemas a model sees name exactly the fields the checks accept, and require the prompt', () => {
    assert.deepEqual(
      Object.keys(GENERATE_VIDEO_JSON_SCHEMA.properties).sort(),
      Object.keys(generateVideoInputSchema.def.shape).sort(),
    );
    assert.deepEqual(
      Object.keys(VIDEO_STATUS_JSON_SCHEMA.properties).sort(),
      Object.keys(videoStatusInputSchema.def.shape).sort(),
    );
    assert.deepEqual(GENERATE_VIDEO_JSON_SCHEMA.required, ['prompt']);
    // What the schema promises, the check accepts.
    const example = {
      prompt: 'p',
      model: 'vendor-image-video',
      seconds: 5,
      aspectRatio: '1:1',
      resolution: '720p',
      images: ['a.png'],
    };
    assert.ok(parseToolInput(generateVideoInputSchema, example).ok);
  });
});
