// The words of a failed connection: the real cause under Node's "fetch failed" with its code, the
// address that refused, the proxy named (never its password) when the request went through it,
// and the timeout or network error a request with no answer becomes.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { connectFailure, describeNetworkError, noAnswer } from '../../../../src/api/transport/connectFailure';
import { GatewayError } from '../../../../src/api/transport/errors';

/** A loopback port nothing listens on: a server is opened on port 0 and closed again. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** What the global fetch throws for a refused connection to `url`. */
async function fetchError(url: string): Promise<unknown> {
  try {
    await fetch(url);
  } catch (e) {
    return e;
  }
  assert.fail(`${url} answered`);
}

const proxyError = (why: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(why), { code: 'ECONNRESET' }) });

let port = 0;
let refused: unknown;
before(async () => {
  port = await closedPort();
  refused = await fetchError(`http://127.0.0.1:${port}/v1/models`);
});

void describe('describeNetworkError', () => {
  void it("gives the cause under fetch's 'fetch failed', with its code and the address that refused", () => {
    assert.equal(describeNetworkError(refused), `fetch failed: connect ECONNREFUSED 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  void it('follows at most four causes, and words a thrown non-error as it is', () => {
    let e: Error = new Error('level 5');
    for (let i = 4; i >= 1; i--) e = new Error(`level ${i}`, { cause: e });
    assert.equal(describeNetworkError(e), 'level 1: level 2: level 3: level 4');
    assert.equal(describeNetworkError('socket hang up'), 'socket hang up');
    assert.equal(describeNetworkError(Object.assign(new Error('x'), { code: 42 })), 'x');
  });
});

void describe('connectFailure', () => {
  void it('a direct connection refused names the host and port and the cause', () => {
    assert.equal(
      connectFailure(`http://127.0.0.1:${port}/v1/models`, refused, undefined, []),
      `Could not connect to 127.0.0.1:${port}: fetch failed: connect ECONNREFUSED 127.0.0.1:${port} (ECONNREFUSED)`,
    );
  });

  void it('through the proxy, the proxy is named by host only, never with its user or password', () => {
    const msg = connectFailure(
      'https://api.gws.test/v1/models',
      proxyError('socket hang up'),
      'http://alice:s3cret@proxy.corp:3128',
      [],
    );
    assert.equal(
      msg,
      'Could not connect to api.gws.test through the proxy proxy.corp:3128 (http.proxy): fetch failed: socket hang up (ECONNRESET)',
    );
    assert.doesNotMatch(msg, /alice|s3cret/);
  });

  void it('a 407 from the proxy says it wants credentials and where they go', () => {
    const msg = connectFailure(
      'https://api.gws.test:8443/v1',
      proxyError('Proxy response (407) !== 200 when HTTP Tunneling'),
      'http://proxy.corp:3128',
      [],
    );
    assert.match(msg, /^The proxy proxy\.corp:3128 \(http\.proxy\) refused to connect to api\.gws\.test:8443/);
    assert.match(msg, /requires authentication \(407 Proxy Authentication Required\)/);
    assert.match(msg, /http:\/\/user:password@host:port/);
  });

  void it('a proxy setting that is not a URL is shown as set', () => {
    assert.match(
      connectFailure('http://api.gws.test/', proxyError('refused'), 'proxy.corp 3128', []),
      /through the proxy proxy\.corp 3128 \(http\.proxy\)/,
    );
  });

  void it('loopback hosts and http.noProxy hosts (exact, parent domain, *.domain) are not blamed on the proxy', () => {
    const cases: [string, string[]][] = [
      ['http://127.0.0.1:1/', []],
      ['http://localhost:1/', []],
      ['http://[::1]:1/', []],
      ['http://video.gws.test/', ['video.gws.test']],
      ['http://video.gws.test/', [' .GWS.test ']],
      ['http://video.gws.test/', ['*.gws.test']],
    ];
    for (const [url, noProxy] of cases) {
      const msg = connectFailure(url, proxyError('refused'), 'http://proxy.corp:3128', noProxy);
      assert.match(msg, /^Could not connect to \S+: fetch failed: refused/, `${url} with ${noProxy.join(',')}`);
      assert.doesNotMatch(msg, /proxy/, `${url} with ${noProxy.join(',')}`);
    }
    // A name that only ends like a listed domain is still sent through the proxy.
    assert.match(
      connectFailure('http://evilgws.test/', proxyError('refused'), 'http://proxy.corp:3128', ['gws.test']),
      /through the proxy/,
    );
  });
});

void describe('noAnswer', () => {
  void it('with a deadline: a retryable timeout naming the request and the seconds', () => {
    const e = noAnswer(new Error('aborted'), {
      method: 'POST',
      url: 'http://x/v1/chat',
      path: '/v1/chat',
      timeoutMs: 2500,
    });
    assert.ok(e instanceof GatewayError);
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, 'No answer from POST /v1/chat within 3 s.');
    assert.equal(e.retryable, true);
    assert.equal(e.method, 'POST');
    assert.equal(e.path, '/v1/chat');
  });

  void it('without one: a retryable network error worded by connectFailure, keeping the cause', () => {
    const url = `http://127.0.0.1:${port}/v1/models`;
    const e = noAnswer(refused, { method: 'GET', url, path: '/v1/models' });
    assert.equal(e.kind, 'network');
    assert.equal(e.retryable, true);
    assert.equal(e.message, connectFailure(url, refused, undefined, []));
    assert.equal(e.cause, refused);
  });

  void it('passes the proxy and http.noProxy on to the words', () => {
    const r = { method: 'GET', url: 'http://api.gws.test/v1', path: '/v1', proxy: 'http://proxy.corp:3128' };
    assert.match(noAnswer(proxyError('refused'), r).message, /through the proxy proxy\.corp:3128/);
    assert.doesNotMatch(noAnswer(proxyError('refused'), { ...r, noProxy: ['gws.test'] }).message, /proxy/);
  });
});
