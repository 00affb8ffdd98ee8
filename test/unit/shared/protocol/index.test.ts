import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostMessageSchema, parseHostMessage, parseWebviewMessage } from '../../../../src/shared/protocol';
import { contentSecurityPolicy, webviewHtml } from '../../../../src/shared/webviewHtml';

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

void test('unknown message types and missing request ids are refused', () => {
  assert.equal(parseWebviewMessage({ type: 'chat/explode' }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/cancel' }).ok, false);
  assert.equal(parseWebviewMessage(null).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/cancel', requestId: 'r9' }).ok, true);
});

void test('a tool decision must be allow, deny or alwaysAllow', () => {
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: 'c1', decision: 'allow' }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: 'c1', decision: 'sure' }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'tools/decide', callId: '', decision: 'deny' }).ok, false);
});

void test('host tool-call updates validate their state and keep the result preview', () => {
  const m = parseHostMessage({
    type: 'tools/call',
    update: {
      callId: 'c1',
      name: 'read_file',
      argumentsJson: '{"path":"a"}',
      state: 'done',
      readOnly: true,
      resultPreview: 'abc',
    },
  });
  assert.equal(m?.type, 'tools/call');
  assert.equal(
    parseHostMessage({
      type: 'tools/call',
      update: { callId: 'c1', name: 'x', argumentsJson: '{}', state: 'finished', readOnly: true },
    }),
    undefined,
  );
});

void test('conversation parameter overrides are range-checked like spec 2.1 (temperature 3 is refused)', () => {
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { temperature: 1.2, stop: ['a'] } }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { temperature: 3 } }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { stop: ['a', 'b', 'c', 'd', 'e'] } }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'chat/setParams', params: { top_p: -0.1 } }).ok, false);
});

void test('no host message schema has a field that could carry the API key', () => {
  const text = JSON.stringify(hostMessageSchema.def.options.map((o) => Object.keys(o.shape)));
  assert.doesNotMatch(text, /key|secret|token"/i);
});

void test('the webview page denies everything by default and runs only the nonce script', () => {
  const csp = contentSecurityPolicy('vscode-webview://abc', 'N0NCE');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0NCE'/);
  assert.match(csp, /img-src vscode-webview:\/\/abc data:/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https:/);
  const html = webviewHtml({
    cspSource: 'x',
    nonce: 'N0NCE',
    scriptUri: 's.js"><script>alert(1)</script>',
    styleUri: 'c.css',
    title: 'T',
  });
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /&quot;&gt;&lt;script&gt;/);
});

void test("a video card's action is one of open, reveal and openExternal, for a call id; anything else is refused", () => {
  const ok = parseWebviewMessage({ type: 'tools/videoAction', callId: 'call_0', action: 'reveal' });
  assert.deepEqual(ok, { ok: true, message: { type: 'tools/videoAction', callId: 'call_0', action: 'reveal' } });
  for (const bad of [
    { type: 'tools/videoAction', callId: 'call_0', action: 'deleteFile' },
    { type: 'tools/videoAction', callId: '', action: 'open' },
    { type: 'tools/videoAction', action: 'open' },
  ])
    assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
});
