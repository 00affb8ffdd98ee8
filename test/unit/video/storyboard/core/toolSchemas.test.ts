import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SHOTS, MAX_TAKES } from '../../../../../src/video/storyboard/core/board';
import { ADD_SHOT_JSON_SCHEMA, CREATE_JSON_SCHEMA } from '../../../../../src/video/storyboard/core/toolSchemas';

void test("the tools' JSON schemas state the board's own bounds (they are written out to stay out of the activation bundle)", () => {
  assert.equal(CREATE_JSON_SCHEMA.properties.shots.maxItems, MAX_SHOTS);
  assert.equal(CREATE_JSON_SCHEMA.properties.shots.items.properties.takes.maximum, MAX_TAKES);
  assert.equal(ADD_SHOT_JSON_SCHEMA.properties.shot.properties.takes.maximum, MAX_TAKES);
});

void test("package.json's storyboard tools offer the same shot fields as the chat's tools, keyframes included", () => {
  const root = join(__dirname, '..', '..', '..', '..', '..');
  type Props = { properties: Record<string, { properties?: Record<string, unknown> }> };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: Array<{ name: string; inputSchema: Props }> };
  };
  const tool = (name: string) => pkg.contributes.languageModelTools.find((t) => t.name === name)!.inputSchema;
  const shotKeys = (p: unknown) => Object.keys((p as { properties: object }).properties).sort();
  const create = tool('gatewayStudio_createStoryboard').properties.shots as unknown as { items: unknown };
  assert.deepEqual(shotKeys(create.items), shotKeys(CREATE_JSON_SCHEMA.properties.shots.items));
  assert.deepEqual(
    shotKeys(tool('gatewayStudio_addStoryboardShot').properties.shot),
    shotKeys(ADD_SHOT_JSON_SCHEMA.properties.shot),
  );
  assert.ok(shotKeys(ADD_SHOT_JSON_SCHEMA.properties.shot).includes('firstFrame'));
  assert.deepEqual(Object.keys(CREATE_JSON_SCHEMA.properties.shots.items.properties.firstFrame.properties), [
    'prompt',
    'model',
  ]);
});
