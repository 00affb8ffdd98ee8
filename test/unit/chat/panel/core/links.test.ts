import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askBeforeOpening, checkChatLink } from '../../../../../src/chat/panel/core/links';

void test('links that hide their host behind user info are refused', () => {
  for (const href of [
    'https://github.com@evil.example/login',
    'https://user:pass@evil.example',
    'http://user@evil.example:8080/x',
    'https://@evil.example',
    'HTTPS://GitHub.com%40x@evil.example',
    'https://a:@evil.example',
  ]) {
    assert.deepEqual(checkChatLink(href), { ok: false, reason: 'userInfo' }, href);
  }
});

void test('ordinary web and mail links are opened; an @ after the host is not user info', () => {
  for (const href of [
    'https://github.com/org/repo',
    'http://example.com:8080/path?q=a@b#frag@x',
    'https://example.com/users/@me',
    'mailto:someone@example.com',
  ]) {
    assert.deepEqual(checkChatLink(href), { ok: true }, href);
  }
});

void test('other schemes and non-links are refused with the reason', () => {
  assert.deepEqual(checkChatLink('file:///etc/passwd'), { ok: false, reason: 'scheme', scheme: 'file' });
  assert.deepEqual(checkChatLink('command:workbench.action.terminal.new'), {
    ok: false,
    reason: 'scheme',
    scheme: 'command',
  });
  assert.equal(checkChatLink('not a link').ok, false);
  assert.equal(checkChatLink('https://').ok, false);
});

void test('mail links and links into the own machine or network are asked about; other web links are left to VS Code', () => {
  for (const href of ['mailto:someone@example.com?subject=x&body=y', ' MAILTO:a@b.example'])
    assert.equal(askBeforeOpening(href), 'mail', href);
  for (const href of [
    'http://localhost:3000/admin/delete?all=1',
    'http://localhost.:3000/',
    'http://app.localhost/',
    'http://127.0.0.1:8080/',
    'http://[::1]/',
    'http://192.168.1.1/reboot',
    'http://169.254.169.254/latest/meta-data/',
  ])
    assert.equal(askBeforeOpening(href), 'local', href);
  for (const href of ['https://github.com/org/repo', 'http://example.com:8080/x'])
    assert.equal(askBeforeOpening(href), undefined, href);
});
