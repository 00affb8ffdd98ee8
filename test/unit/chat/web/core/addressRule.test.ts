// The resolved-address rule as fetch_url applies it: schemes, credentials, private hosts as
// written, the user's allowed hosts, and the connect-time lookup.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import {
  checkTarget,
  hostKey,
  readAllowedHosts,
  webLookup,
  WebRefusal,
  type Resolve,
} from '../../../../../src/chat/web/core/addressRule';

const none = new Set<string>();

void describe('checkTarget', () => {
  void it('lets public http(s) addresses through', () => {
    checkTarget(new URL('https://example.com/a'), none);
    checkTarget(new URL('http://93.184.216.34/'), none);
  });

  void it('refuses other schemes, credentials and private hosts as written', () => {
    for (const u of ['file:///etc/passwd', 'data:text/plain,hi', 'ftp://example.com/x', 'javascript:alert(1)'])
      assert.throws(() => checkTarget(new URL(u), none), /URLs are not fetched/);
    assert.throws(() => checkTarget(new URL('https://user:pw@example.com/'), none), /user name or password/);
    for (const u of [
      'http://localhost:8080/',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1/',
      'http://app.localhost./',
    ])
      assert.throws(() => checkTarget(new URL(u), none), WebRefusal, u);
  });

  void it('lets a private host through only when the user allowed it by name', () => {
    const allowed = readAllowedHosts(['127.0.0.1', '[::1]', 'Intranet.Local.']).hosts;
    checkTarget(new URL('http://127.0.0.1:3000/'), allowed);
    checkTarget(new URL('http://[::1]/'), allowed);
    checkTarget(new URL('http://intranet.local/'), allowed);
    assert.throws(() => checkTarget(new URL('http://localhost/'), allowed), WebRefusal);
  });
});

void describe('readAllowedHosts', () => {
  void it('names what is not a host', () => {
    const r = readAllowedHosts(['ok.local', 'http://x/', 3, '']);
    assert.deepEqual([...r.hosts], ['ok.local']);
    assert.equal(r.problems.length, 3);
    assert.match(readAllowedHosts('127.0.0.1').problems[0] ?? '', /must be a list/);
    assert.equal(hostKey('[::1]'), '::1');
  });
});

void describe('webLookup', () => {
  const lookup = (resolve: Resolve, allow: boolean, all = false) =>
    new Promise<{ err: Error | null; address?: string | LookupAddress[] }>((done) =>
      webLookup(resolve, allow)('pages.test', { all }, (err, address) => done({ err, address })),
    );

  void it('hands the socket exactly what resolved, when every address is public', async () => {
    const r = await lookup(async () => [{ address: '93.184.216.34', family: 4 }], false);
    assert.equal(r.err, null);
    assert.equal(r.address, '93.184.216.34');
  });

  void it('refuses a name with any private address, unless allowed', async () => {
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: 'fd00::1', family: 6 },
    ];
    assert.match((await lookup(mixed, false)).err?.message ?? '', /resolves to fd00::1/);
    assert.equal((await lookup(mixed, true, true)).err, null);
    assert.match((await lookup(async () => [], false)).err?.message ?? '', /ENOTFOUND/);
  });
});
