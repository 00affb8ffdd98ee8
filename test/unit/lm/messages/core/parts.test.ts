import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  classifyPart,
  describePart,
  imageDataUrl,
  isImageMime,
  isTextMime,
  promptTsxText,
  utf8,
} from '../../../../../src/lm/messages/core/parts';

void test('parts are told apart by the fields the host sets', () => {
  assert.deepEqual(classifyPart('hi'), { kind: 'text', text: 'hi' });
  assert.deepEqual(classifyPart({ value: 'hi' }), { kind: 'text', text: 'hi' });
  assert.deepEqual(classifyPart({ callId: 'c1', name: 'read', input: { a: 1 } }), {
    kind: 'toolCall',
    callId: 'c1',
    name: 'read',
    input: { a: 1 },
  });
  assert.deepEqual(classifyPart({ callId: 'c1', content: ['x'] }), {
    kind: 'toolResult',
    callId: 'c1',
    content: ['x'],
  });
  const data = new Uint8Array([1, 2]);
  assert.deepEqual(classifyPart({ mimeType: 'image/png', data }), { kind: 'data', mimeType: 'image/png', data });
  assert.deepEqual(classifyPart({ value: ['a', 1, 'b'], id: 't', metadata: {} }), { kind: 'thinking', text: 'ab' });
  class Strange {}
  assert.deepEqual(classifyPart(new Strange()), { kind: 'unknown', what: 'Strange' });
  assert.deepEqual(classifyPart(42), { kind: 'unknown', what: '42' });
});

void test('MIME types: text a model can read, images by their type', () => {
  for (const m of ['text/plain', 'application/json', 'application/ld+json', 'TEXT/CSV']) assert.ok(isTextMime(m), m);
  assert.ok(!isTextMime('application/pdf'));
  assert.ok(isImageMime('image/png') && isImageMime('image/svg+xml'));
  assert.ok(!isImageMime('image/') && !isImageMime('text/png'));
});

void test('bytes become a data URL or text, honouring a view into a larger buffer', () => {
  const whole = new TextEncoder().encode('xxhixx');
  const view = whole.subarray(2, 4);
  assert.equal(utf8(view), 'hi');
  assert.equal(imageDataUrl('IMAGE/PNG', view), `data:image/png;base64,${Buffer.from('hi').toString('base64')}`);
});

void test("a prompt-tsx tree gives its text nodes' text, and a deep or odd tree gives nothing", () => {
  assert.equal(promptTsxText({ node: { children: [{ text: 'a' }, { text: 'b', x: { text: 'c' } }] } }), 'abc');
  assert.equal(promptTsxText('bare'), '');
  let deep: Record<string, unknown> = { text: 'z' };
  for (let i = 0; i < 60; i++) deep = { child: deep };
  assert.equal(promptTsxText(deep), '');
});

void test('a part is described for the dropped list by its kind', () => {
  assert.equal(
    describePart({ kind: 'data', mimeType: 'audio/wav', data: new Uint8Array() }),
    'data part of type audio/wav',
  );
  assert.equal(describePart({ kind: 'unknown', what: 'Strange' }), 'Strange');
  assert.equal(describePart({ kind: 'thinking', text: '' }), 'thinking part');
});
