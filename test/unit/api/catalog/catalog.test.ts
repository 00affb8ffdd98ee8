import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  familyFor,
  loadCatalog,
  mergeCatalog,
  parseOverrideText,
  shippedCatalog,
} from '../../../../src/api/catalog/catalog';

const catalog = shippedCatalog();

void describe('the shipped catalog', () => {
  void it('names every family the issue asks for, each with a route and its kind', () => {
    const ids = catalog.families.map((f) => f.id);
    for (const id of ['kling', 'seedance', 'veo', 'wan', 'hailuo', 'vidu', 'gpt-image', 'seedream', 'flux'])
      assert.ok(ids.includes(id), `${id} is in the catalog`);
    for (const f of catalog.families) assert.ok(['video', 'image'].includes(f.kind), f.id);
  });

  void it('finds the family of the model ids relays list', () => {
    const cases: [string, string][] = [
      ['kling-v2-1-master', 'kling'],
      ['doubao-seedance-1-0-pro-250528', 'seedance'],
      ['veo-3.1-generate-preview', 'veo'],
      ['wan2.5-i2v-preview', 'wan'],
      ['wanx2.1-kf2v-plus', 'wan'],
      ['MiniMax-Hailuo-02', 'hailuo'],
      ['I2V-01-Director', 'hailuo'],
      ['viduq1', 'vidu'],
      ['sora-2', 'openai-videos'],
      ['gpt-image-1', 'gpt-image'],
      ['doubao-seedream-4-0-250828', 'seedream'],
      ['flux-kontext-pro', 'flux'],
      ['gemini-2.5-flash-image', 'gemini-image'],
    ];
    for (const [model, id] of cases) assert.equal(familyFor(catalog, model)?.id, id, model);
    assert.equal(familyFor(catalog, 'vendor-image-video'), undefined);
    assert.equal(familyFor(catalog, ''), undefined);
    assert.equal(familyFor(catalog, 'gpt-image-1', 'video'), undefined);
  });

  void it('Wan takes its frames as URLs only, with the audio flag', () => {
    const wan = familyFor(catalog, 'wan2.5-i2v-preview')!;
    assert.equal(wan.firstFrame?.field, 'metadata.first_frame_url');
    assert.equal(wan.lastFrame?.field, 'metadata.last_frame_url');
    assert.equal(wan.firstFrame?.accepts, 'url');
    assert.equal(wan.lastFrame?.accepts, 'url');
    assert.deepEqual(wan.audio, { field: 'metadata.audio', on: true, off: false });
  });

  void it('Kling sends its last frame as image_tail', () => {
    assert.equal(familyFor(catalog, 'kling-v1')!.lastFrame?.field, 'metadata.image_tail');
  });
});

void describe('catalog overrides', () => {
  void it('a syntax error is named with its line and column, and the shipped catalog applies', () => {
    const text = '{\n  "families": [\n    { "id": "wan", "durations": [5, 10], }\n  ]\n}';
    const loaded = loadCatalog({ globalValue: text }, 'catalog.json');
    assert.equal(loaded.catalog, catalog);
    assert.equal(loaded.problems.length, 1);
    assert.match(loaded.problems[0]!, /^catalog\.json, line 3, column \d+: the catalog override is not valid JSON/);
    assert.match(parseOverrideText('{', 'x').problem!, /line 1/);
  });

  void it('a user override changes a family field by field and can add a family in front', () => {
    const loaded = loadCatalog({
      globalValue: {
        families: [
          { id: 'wan', durations: [5] },
          { id: 'my-relay-video', kind: 'video', route: 'video-generations', models: ['^wan2\\.9'], durations: [3] },
        ],
      },
    });
    assert.deepEqual(loaded.problems, []);
    const wan = familyFor(loaded.catalog, 'wan2.5-t2v')!;
    assert.deepEqual(wan.durations, [5]);
    assert.equal(wan.lastFrame?.field, 'metadata.last_frame_url', 'fields the override does not name stay');
    assert.equal(familyFor(loaded.catalog, 'wan2.9-x')!.id, 'my-relay-video');
  });

  void it("the setting's default (an empty object) changes nothing and reports nothing", () => {
    const loaded = loadCatalog({ globalValue: {} });
    assert.equal(loaded.catalog, catalog);
    assert.deepEqual(loaded.problems, []);
  });

  void it('a workspace override is ignored, and says so', () => {
    const hostile = {
      families: [{ id: 'wan', firstFrame: { field: 'metadata.first_frame_url', accepts: 'url-or-base64' } }],
    };
    for (const layer of ['workspaceValue', 'workspaceFolderValue', 'remoteValue'] as const) {
      const loaded = loadCatalog({ [layer]: hostile });
      assert.equal(loaded.catalog, catalog, layer);
      assert.match(loaded.problems[0]!, /user settings only/);
      assert.equal(familyFor(loaded.catalog, 'wan2.5-i2v')!.firstFrame?.accepts, 'url');
    }
  });

  void it('broken entries are skipped, each named, and the rest still applies', () => {
    const merged = mergeCatalog(
      catalog,
      {
        families: [
          'nope',
          { id: 'x', kind: 'audio', route: 'images', models: ['x'] },
          { id: 'y', kind: 'image', route: 'images', models: ['('] },
          { id: 'z', kind: 'image', route: 'nowhere', models: ['z'] },
          { id: 'veo', durations: [4, 'eight'] },
          { id: 'gpt-image', n: { max: 0 } },
          { id: 'flux', n: { max: 2 } },
        ],
      },
      'user',
    );
    assert.equal(merged.problems.length, 6, merged.problems.join('\n'));
    assert.equal(familyFor(merged.catalog, 'flux-pro')!.n?.max, 2);
    assert.deepEqual(familyFor(merged.catalog, 'veo-3')!.durations, [4, 6, 8]);
    assert.match(mergeCatalog(catalog, [], 'user').problems[0]!, /"families" list/);
  });
});
