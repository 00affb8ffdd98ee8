// The video tools' words without VS Code: what package.json tells a model equals what the code
// generates, the confirmation names model/duration/resolution/references, refusals name each rule,
// and a failed task's reason comes with its spec meaning.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateVideoRequest } from '../../../../../src/api/video/videoRules';
import {
  confirmationText,
  generateToolDescription,
  rulesResult,
  startedText,
  statusToolDescription,
  taskStatusText,
} from '../../../../../src/video/tools/core/agentText';
import { catalogRulesText } from '../../../../../src/video/tools/core/catalogText';
import type { VideoTaskRecord } from '../../../../../src/video/jobs/core/record';
import { GENERATE_VIDEO_JSON_SCHEMA, VIDEO_STATUS_JSON_SCHEMA } from '../../../../../src/video/tools/core/toolInput';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    languageModelTools: {
      name: string;
      toolReferenceName: string;
      modelDescription: string;
      inputSchema: unknown;
      userDescription: string;
      icon: string;
      tags: string[];
    }[];
  };
};

function record(over: Partial<VideoTaskRecord>): VideoTaskRecord {
  return {
    v: 1,
    key: 'k1',
    state: 'polling',
    request: { model: 'vendor-image-video', prompt: 'a fox', images: [] },
    warnings: [],
    polls: 0,
    transientErrors: 0,
    createdAt: 1,
    updatedAt: 1,
    ...over,
  };
}

void describe('video tools: texts and input', () => {
  void it('package.json declares both tools with the generated model descriptions and input schemas', () => {
    const tools = pkg.contributes.languageModelTools;
    const gen = tools.find((t) => t.name === 'gatewayStudio_generateVideo');
    const st = tools.find((t) => t.name === 'gatewayStudio_videoStatus');
    assert.ok(gen && st, 'both tools are contributed');
    assert.equal(gen.toolReferenceName, 'generateVideo');
    assert.equal(
      gen.modelDescription,
      generateToolDescription(catalogRulesText()),
      'the description drifted from agentText.ts: run `npx tsx scripts/video-tools-manifest.ts`',
    );
    assert.equal(st.modelDescription, statusToolDescription());
    assert.deepEqual(gen.inputSchema, JSON.parse(JSON.stringify(GENERATE_VIDEO_JSON_SCHEMA)));
    assert.deepEqual(st.inputSchema, JSON.parse(JSON.stringify(VIDEO_STATUS_JSON_SCHEMA)));
    for (const t of [gen, st])
      assert.ok(t.userDescription && t.icon && t.tags.length > 0, `${t.name} has userDescription, icon and tags`);
  });

  void it('the model description gives the rules of each known model', () => {
    const d = generateToolDescription();
    assert.match(d, /vendor-image-video: text-to-video or image-to-video; 0 to 7 reference images/);
    assert.match(d, /vendor-video-1\.5: image-to-video only \(no text-to-video\); exactly 1 reference image/);
    assert.match(d, /with several references at most 10/);
    assert.match(d, /aspect ratios 16:9, 9:16;/);
  });

  void it('the confirmation names the model, duration, resolution and references, and says it is billed', () => {
    const c = confirmationText(
      {
        model: 'vendor-video-1.5',
        prompt: 'a diagram comes alive',
        seconds: 4,
        resolution: '480p',
        aspect_ratio: '16:9',
      },
      ['docs/diagram.png'],
    );
    assert.match(c.title, /vendor-video-1\.5/);
    assert.match(c.title, /4 s/);
    assert.match(c.message, /Resolution: 480p/);
    assert.match(c.message, /Reference images: docs\/diagram\.png/);
    assert.match(c.message, /billed/);
  });

  void it('the confirmation carries the price line (or why it is unknown) before the billing note', () => {
    const req = { model: 'vendor-image-video', prompt: 'a fox', seconds: 4, resolution: '720p' };
    const priced = confirmationText(req, [], 'Price: about ¥0.80: 4 s, 720p, vendor-image-video').message.split('\n');
    assert.ok(priced.includes('Price: about ¥0.80: 4 s, 720p, vendor-image-video'), priced.join('|'));
    assert.ok(
      priced.indexOf('Price: about ¥0.80: 4 s, 720p, vendor-image-video') <
        priced.indexOf('This is billed to your gateway account.'),
    );
    assert.match(
      confirmationText(req, [], 'Price unknown: no gateway is set up.').message,
      /Price unknown: no gateway/,
    );
    assert.doesNotMatch(confirmationText(req, []).message, /Price/);
  });

  void it('a refused request lists every broken rule by name', () => {
    const v = validateVideoRequest({ model: 'vendor-video-1.5', prompt: '', seconds: 20 });
    const text = rulesResult(v.errors);
    assert.match(text, /not sent/);
    for (const rule of ['prompt-required', 'text-to-video', 'seconds-max'])
      assert.match(text, new RegExp(`- ${rule} `));
  });

  void it('status texts: running with progress, saved with its path, failed with reason and meaning', () => {
    const rel = (f: string) => f.replace('/ws/', '');
    assert.match(
      taskStatusText(record({ videoId: 'video_svc_v1_x', status: 'in_progress', progress: 50 }), rel),
      /status: polling \(gateway: in_progress\)\n {2}progress: 50%/,
    );
    assert.match(
      taskStatusText(record({ state: 'saved', file: '/ws/videos/a-fox.mp4', progress: 100 }), rel),
      /file: videos\/a-fox\.mp4/,
    );
    const failed = taskStatusText(record({ state: 'failed', outcome: 'failed', failReason: 'content policy' }), rel);
    assert.match(failed, /failure: failed: .*spec 3.*reason: content policy/);
    const started = startedText(
      record({ videoId: 'video_svc_v1_y', status: 'queued', progress: 0 }),
      '/ws/videos/a-fox-y.mp4',
      rel,
    );
    assert.match(started, /Started video task video_svc_v1_y \(status: queued, progress 0%\)/);
    assert.match(started, /saved to videos\/a-fox-y\.mp4/);
    assert.match(started, /do not start it again/);
  });
});
