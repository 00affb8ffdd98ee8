import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentSecurityPolicy, webviewHtml } from '../../../src/shared/webviewHtml';

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

void test('a module page (the chat) loads its one script as a module with the nonce, under the same CSP', () => {
  const o = { cspSource: 'x', nonce: 'N0NCE', scriptUri: 'webview.js', styleUri: 'c.css', title: 'T' };
  const html = webviewHtml({ ...o, module: true });
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<script type="module" nonce="N0NCE" src="webview.js"><\/script>/);
  // The chunks it imports are admitted by the nonce alone (they inherit it): no source is added.
  assert.equal(html.replace(' type="module"', ''), webviewHtml(o));
  assert.doesNotMatch(webviewHtml(o), /type="module"/);
});
