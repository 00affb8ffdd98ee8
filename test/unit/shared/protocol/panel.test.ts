import assert from 'node:assert/strict';
import { test } from 'node:test';
import { panelHostMessages, panelWebviewMessages } from '../../../../src/shared/protocol/panel';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(panelHostMessages);
const webview = union(panelWebviewMessages);
const image = { name: 'shot.png', mime: 'image/png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 };

void test('every panel message is accepted in its valid shape', () => {
  acceptsEvery(host, [{ type: 'images/picked', images: [image], problems: ['huge.png is over 5 MB'] }]);
  acceptsEvery(webview, [
    { type: 'images/pick' },
    { type: 'images/rejected', name: 'huge.png', reason: 'over 5 MB' },
    { type: 'code/copy', code: 'let x = 1;' },
    { type: 'code/insert', code: 'let x = 1;', language: 'typescript' },
    { type: 'code/open', code: 'print(1)', language: 'python' },
    { type: 'message/copy', messageId: 'a1' },
    { type: 'link/open', href: 'https://example.com/docs' },
  ]);
});

void test('a language tag over 100 characters, a link over 10,000, or a message without its id is refused', () => {
  assert.match(
    refusal(webview, { type: 'code/insert', code: 'x', language: 'l'.repeat(101) }),
    /^language: Too big.*<=100/,
  );
  assert.match(refusal(webview, { type: 'code/open', code: 'x', language: 'l'.repeat(101) }), /^language: Too big/);
  assert.equal(
    refusal(webview, { type: 'code/insert', language: 'ts' }),
    'code: Invalid input: expected string, received undefined',
  );
  assert.match(refusal(webview, { type: 'link/open', href: 'h'.repeat(10_001) }), /^href: Too big.*<=10000/);
  assert.match(refusal(webview, { type: 'message/copy', messageId: '' }), /^messageId: Too small/);
  assert.match(refusal(webview, { type: 'images/rejected', name: 'a.png' }), /^reason: Invalid input/);
});

void test('a picked image is a base64 image data URL with a whole byte count', () => {
  const picked = (i: object) => ({ type: 'images/picked', images: [{ ...image, ...i }], problems: [] });
  assert.match(refusal(host, picked({ mime: 'text/html' })), /^images\.0\.mime: Invalid string: must match pattern/);
  assert.match(refusal(host, picked({ dataUrl: 'https://example.com/a.png' })), /^images\.0\.dataUrl: Invalid string/);
  assert.match(refusal(host, picked({ bytes: -1 })), /^images\.0\.bytes: Too small/);
  assert.match(refusal(host, picked({ name: 'n'.repeat(501) })), /^images\.0\.name: Too big/);
});
