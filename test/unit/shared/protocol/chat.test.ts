import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWebviewMessage } from '../../../../src/shared/protocol';

const png = 'data:image/png;base64,iVBORw0KGgo=';

void test('a chat/send with text, an image data URL and editor context is accepted as typed', () => {
  const r = parseWebviewMessage({
    type: 'chat/send',
    requestId: 'r1',
    text: 'hello',
    images: [{ name: 'a.png', mime: 'image/png', dataUrl: png, bytes: 8 }],
    contexts: [{ fileName: '/w/a.ts', language: 'typescript', text: 'let x = 1;', startLine: 0, endLine: 0 }],
  });
  assert.equal(r.ok, true);
  if (r.ok && r.message.type === 'chat/send') assert.equal(r.message.images[0]?.dataUrl, png);
});

void test('an image that is not a complete base64 data URL is refused with the field named', () => {
  const r = parseWebviewMessage({
    type: 'chat/send',
    requestId: 'r1',
    text: '',
    images: [{ name: 'x', mime: 'image/png', dataUrl: 'https://evil.example/x.png', bytes: 1 }],
    contexts: [],
  });
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.problem, /chat\/send.*images\.0\.dataUrl/);
});

void test('conversation parameter overrides are range-checked like spec 2.1 (temperature 3 is refused)', () => {
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { temperature: 1.2, stop: ['a'] } }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { temperature: 3 } }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { stop: ['a', 'b', 'c', 'd', 'e'] } }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { top_p: -0.1 } }).ok, false);
});
