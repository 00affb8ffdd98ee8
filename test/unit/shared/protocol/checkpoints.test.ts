import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkpointsHostMessages, checkpointsWebviewMessages } from '../../../../src/shared/protocol/checkpoints';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(checkpointsHostMessages);
const webview = union(checkpointsWebviewMessages);
const file = { path: '/w/a.ts', relative: 'a.ts', status: 'changed', action: 'restore', diff: '-a\n+b' };

void test('every checkpoints message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    { type: 'checkpoints/list', conversationId: 'c1', answers: [{ answerId: 'a1', files: 2, unrecorded: 0 }] },
    { type: 'checkpoints/plan', answerId: 'a1', files: [file] },
    { type: 'checkpoints/plan', answerId: 'a1' },
  ]);
  acceptsEvery(webview, [
    { type: 'checkpoints/preview', answerId: 'a1' },
    { type: 'checkpoints/diff', answerId: 'a1', path: '/w/a.ts' },
    { type: 'checkpoints/cancel', answerId: 'a1' },
    { type: 'checkpoints/restore', answerId: 'a1', overwrite: ['/w/a.ts'], cut: false },
  ]);
});

void test('a checkpoints request without its answer, or with an empty or over-long one, is refused', () => {
  assert.equal(
    refusal(webview, { type: 'checkpoints/preview' }),
    'answerId: Invalid input: expected string, received undefined',
  );
  assert.match(refusal(webview, { type: 'checkpoints/cancel', answerId: '' }), /^answerId: Too small.*>=1 characters/);
  assert.match(
    refusal(webview, { type: 'checkpoints/cancel', answerId: 'a'.repeat(201) }),
    /^answerId: Too big.*<=200/,
  );
  assert.match(refusal(webview, { type: 'checkpoints/undo', answerId: 'a1' }), /^type: Invalid discriminator value/);
});

void test('a restore names at most 10,000 paths of at most 4,096 characters, and says whether to cut', () => {
  const restore = { type: 'checkpoints/restore', answerId: 'a1', overwrite: [] as unknown[], cut: true };
  assert.match(
    refusal(webview, { ...restore, overwrite: Array(10_001).fill('/w/a') }),
    /^overwrite: Too big.*<=10000 items/,
  );
  assert.match(refusal(webview, { ...restore, overwrite: ['/'.repeat(4097)] }), /^overwrite\.0: Too big.*<=4096/);
  assert.match(refusal(webview, { ...restore, overwrite: [1] }), /^overwrite\.0: Invalid input: expected string/);
  assert.match(refusal(webview, { ...restore, cut: 'yes' }), /^cut: Invalid input: expected boolean/);
  assert.match(
    refusal(webview, { type: 'checkpoints/diff', answerId: 'a1', path: 'p'.repeat(4097) }),
    /^path: Too big/,
  );
});

void test('the host says file counts as whole numbers and a file plan in its fixed words', () => {
  const list = (files: number) => ({
    type: 'checkpoints/list',
    conversationId: 'c1',
    answers: [{ answerId: 'a1', files, unrecorded: 0 }],
  });
  assert.match(refusal(host, list(-1)), /^answers\.0\.files: Too small.*>=0/);
  assert.match(refusal(host, list(1.5)), /^answers\.0\.files: Invalid input: expected int/);
  const plan = (f: object) => ({ type: 'checkpoints/plan', answerId: 'a1', files: [{ ...file, ...f }] });
  assert.match(refusal(host, plan({ status: 'modified' })), /^files\.0\.status: Invalid option/);
  assert.match(refusal(host, plan({ action: 'overwrite' })), /^files\.0\.action: Invalid option/);
  assert.match(refusal(host, plan({ diff: undefined })), /^files\.0\.diff: Invalid input/);
});
