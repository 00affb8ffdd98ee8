// The catalog's video families as the generate tool's description gives them to a model (from the
// shipped catalog, so a family added there reaches the description and package.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogRulesText } from '../../../../../src/video/tools/core/catalogText';

void test('each family: its model ids, durations, choices and images, Wan links only', () => {
  const d = catalogRulesText();
  // The catalog's families, from the shipped catalog: what each takes, and Wan's links-only images.
  assert.match(
    d,
    /Kling \(model ids matching \^kling-\): text or image to video; seconds 5, 10; aspect ratios 16:9, 9:16, 1:1; images: a first frame, a last frame\./,
  );
  assert.match(
    d,
    /Wan \(model ids matching [^)]*\): [^.]*resolutions 480P, 720P, 1080P; images: a first frame, a last frame \(public HTTPS URLs only, never files\)/,
  );
  assert.match(d, /Seedance [^.]*up to 4 reference images/);
});
