// What a model is told about the image tools: package.json's languageModelTools carry exactly the
// descriptions and schemas the chat's tools and the MCP server use.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EDIT_IMAGE_DESCRIPTION,
  EDIT_IMAGE_JSON_SCHEMA,
  GENERATE_IMAGE_DESCRIPTION,
  GENERATE_IMAGE_JSON_SCHEMA,
  SAVED_IMAGE,
} from '../../../../../src/images/tools/core/toolSchemas';

const root = join(__dirname, '..', '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    languageModelTools: Array<{
      name: string;
      toolReferenceName: string;
      modelDescription: string;
      inputSchema: unknown;
      displayName: string;
      userDescription: string;
    }>;
  };
};
const nls = (f: string) => JSON.parse(readFileSync(join(root, f), 'utf8')) as Record<string, string>;

void describe('image tool schemas', () => {
  void it('package.json declares #generateImage and #editImage with these descriptions and schemas', () => {
    const tools = pkg.contributes.languageModelTools;
    const gen = tools.find((t) => t.name === 'gatewayStudio_generateImage');
    const edit = tools.find((t) => t.name === 'gatewayStudio_editImage');
    assert.ok(gen && edit);
    assert.equal(gen.toolReferenceName, 'generateImage');
    assert.equal(edit.toolReferenceName, 'editImage');
    assert.equal(gen.modelDescription, GENERATE_IMAGE_DESCRIPTION);
    assert.equal(edit.modelDescription, EDIT_IMAGE_DESCRIPTION);
    assert.deepEqual(gen.inputSchema, JSON.parse(JSON.stringify(GENERATE_IMAGE_JSON_SCHEMA)));
    assert.deepEqual(edit.inputSchema, JSON.parse(JSON.stringify(EDIT_IMAGE_JSON_SCHEMA)));
    for (const f of ['package.nls.json', 'package.nls.zh-cn.json'])
      for (const t of [gen, edit])
        for (const k of [t.displayName, t.userDescription]) assert.ok(nls(f)[k.replace(/%/g, '')], `${f}: ${k}`);
  });

  void it('descriptions say the call is billed and confirmed; an edit needs an image and a prompt', () => {
    assert.match(GENERATE_IMAGE_DESCRIPTION, /billed per image: the user approves each call and its price/);
    assert.match(EDIT_IMAGE_DESCRIPTION, /saved as a new file/);
    assert.deepEqual(EDIT_IMAGE_JSON_SCHEMA.required, ['image', 'prompt']);
    assert.deepEqual(GENERATE_IMAGE_JSON_SCHEMA.required, ['prompt']);
  });

  void it('only the extensions the feature saves with are saved images', () => {
    for (const f of ['a.png', 'b.jpg', 'c.webp', 'd.GIF']) assert.ok(SAVED_IMAGE.test(f), f);
    for (const f of ['a.svg', 'b.png.sh', 'c.json', 'd']) assert.ok(!SAVED_IMAGE.test(f), f);
  });
});
