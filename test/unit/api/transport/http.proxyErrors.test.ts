import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpClient } from '../../../../src/api/transport/http';
import { gatewayFailure } from '../../../support/helpers';

// The connection is refused at once by a fake fetch, as VS Code's proxy-patched fetch reports it.
const refused =
  (why: string): typeof fetch =>
  () =>
    Promise.reject(
      Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(why), { code: 'X' }) }),
    );

const client = (baseUrl: string, o: { noProxy?: string[]; why?: string } = {}) =>
  new HttpClient({
    baseUrl,
    // The made-up names of the proxy set-up are not loopback: plain http needs the opt-in.
    allowInsecureHttp: true,
    maxRetries: 0,
    proxy: 'http://user:secret@127.0.0.1:3128',
    noProxy: o.noProxy,
    fetch: refused(o.why ?? 'connect ECONNREFUSED 127.0.0.1:3128'),
  });

void test('a connection failure through the proxy names the proxy (never its password)', async () => {
  const e = await gatewayFailure(client('http://chat.gws.test:1').request('GET', '/models'));
  assert.equal(e.kind, 'network');
  assert.match(e.message, /chat\.gws\.test:1 through the proxy 127\.0\.0\.1:3128 \(http\.proxy\)/);
  assert.doesNotMatch(e.message, /secret|user/);
});

void test('a 407 from the proxy says it wants credentials and where they go', async () => {
  const e = await gatewayFailure(
    client('http://chat.gws.test:1', { why: 'Proxy response (407) ?.== 200 when HTTP Tunneling' }).request(
      'GET',
      '/models',
    ),
  );
  assert.match(e.message, /The proxy 127\.0\.0\.1:3128 \(http\.proxy\) refused .*requires authentication \(407/);
});

void test('hosts VS Code sends direct (loopback, http.noProxy and its subdomains) are not blamed on the proxy', async () => {
  for (const [url, noProxy] of [
    ['http://127.0.0.1:1', []],
    ['http://localhost:1', []],
    ['http://video.gws.test:1', ['video.gws.test']],
    ['http://video.gws.test:1', ['.gws.test']],
  ] as const) {
    const e = await gatewayFailure(client(url, { noProxy: [...noProxy] }).request('GET', '/models'));
    assert.doesNotMatch(e.message, /through the proxy/, `${url} with noProxy ${noProxy.join(',')}`);
  }
});
