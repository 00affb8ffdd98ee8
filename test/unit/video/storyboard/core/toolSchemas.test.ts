import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SHOTS, MAX_TAKES } from '../../../../../src/video/storyboard/core/board';
import { ADD_SHOT_JSON_SCHEMA, CREATE_JSON_SCHEMA } from '../../../../../src/video/storyboard/core/toolSchemas';

void test("the tools' JSON schemas state the board's own bounds (they are written out to stay out of the activation bundle)", () => {
  assert.equal(CREATE_JSON_SCHEMA.properties.shots.maxItems, MAX_SHOTS);
  assert.equal(CREATE_JSON_SCHEMA.properties.shots.items.properties.takes.maximum, MAX_TAKES);
  assert.equal(ADD_SHOT_JSON_SCHEMA.properties.shot.properties.takes.maximum, MAX_TAKES);
});
