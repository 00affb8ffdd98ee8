// The one fence rule (src/shared/fence.ts) the prompt, the mentions and the export use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fenced, fenceFor } from '../../../src/shared/fence';

void test('a fence is three backticks, or one longer than the longest run inside the text', () => {
  assert.equal(fenceFor('plain'), '```');
  assert.equal(fenceFor('a ``` b'), '````');
  assert.equal(fenceFor('x ````` y `` z'), '``````');
});

void test('a fenced block carries its language and drops one final newline', () => {
  assert.equal(fenced('const a = 1;\n', 'ts'), '```ts\nconst a = 1;\n```');
  assert.equal(fenced('```\nnested\n```', 'markdown'), '````markdown\n```\nnested\n```\n````');
});
