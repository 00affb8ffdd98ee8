// The download's GET over node:http against real loopback servers: the key and headers sent only
// to the gateway's origin, redirects followed or refused, error bodies quoted only from the
// gateway (redacted), a refused connection and a missed deadline worded, a name resolving into the
// user's network refused, and the body piped with its idle watchdog, stop and drop errors.
import assert from 'node:assert/strict';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { pipeBody, wireGet, withLookup, type WireContext } from '../../../../src/api/transport/wireGet';
import { gatewayFailure } from '../../../support/helpers';

const KEY = 'sk-wire-key-0123456789';
const servers: Server[] = [];
after(() =>
  servers.forEach((s) => {
    s.closeAllConnections();
    s.close();
  }),
);

/** A loopback server with `handler`; resolves with its origin and the requests' headers it saw. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingHttpHeaders[] = [];
  const srv = createServer((req, res) => {
    seen.push(req.headers);
    handler(req, res);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  return { origin: `http://127.0.0.1:${port}`, port, seen };
}

const ok = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
  res.end(body);
};

function context(origin: string, logs: string[] = []): Omit<WireContext, 'lookup'> {
  return {
    baseUrl: `${origin}/v1`,
    origin,
    redact: (t) => t.split(KEY).join('[key]'),
    authorization: (url) => (new URL(url).origin === origin ? `Bearer ${KEY}` : undefined),
    extraHeaders: (url): Record<string, string> => (new URL(url).origin === origin ? { 'X-Team': 'blue' } : {}),
    timeoutMs: 2000,
    log: (_level, msg) => logs.push(msg),
  };
}

async function text(res: { body: AsyncIterable<unknown> }): Promise<string> {
  let s = '';
  for await (const c of res.body) s += String(c);
  return s;
}

void describe('wireGet: the request', () => {
  void it("resolves with a 2xx answer once its headers are in, sending the key, the profile's headers and Range", async () => {
    const gw = await serve(ok('video bytes'));
    const logs: string[] = [];
    const res = await wireGet(context(gw.origin, logs), `${gw.origin}/v1/videos/a/content`, '/v1/videos/a/content', {
      headers: { Range: 'bytes=0-' },
      accept: 'video/*',
    });
    assert.equal(res.status, 200);
    assert.equal(res.url, `${gw.origin}/v1/videos/a/content`);
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal(await text(res), 'video bytes');
    assert.equal(gw.seen[0]?.authorization, `Bearer ${KEY}`);
    assert.equal(gw.seen[0]?.['x-team'], 'blue');
    assert.equal(gw.seen[0]?.range, 'bytes=0-');
    assert.equal(gw.seen[0]?.accept, 'video/*');
    assert.match(logs[0] ?? '', /^GET \/v1\/videos\/a\/content -> 200 in \d+ ms$/);
  });

  void it('follows a redirect to another host without the key or the extra headers', async () => {
    const cdn = await serve(ok('from the cdn'));
    const gw = await serve((_req, res) => {
      res.writeHead(302, { location: `${cdn.origin}/files/a.mp4` });
      res.end();
    });
    const res = await wireGet(context(gw.origin), `${gw.origin}/v1/videos/a/content`, '/v1/videos/a/content', {
      followRedirects: true,
    });
    assert.equal(res.url, `${cdn.origin}/files/a.mp4`);
    assert.equal(await text(res), 'from the cdn');
    assert.equal(gw.seen[0]?.authorization, `Bearer ${KEY}`);
    assert.equal(cdn.seen[0]?.authorization, undefined, 'the key never leaves the gateway');
    assert.equal(cdn.seen[0]?.['x-team'], undefined);
  });

  void it('refuses a redirect when the caller does not follow them, naming where it led', async () => {
    const gw = await serve((_req, res) => {
      res.writeHead(307, { location: 'http://elsewhere.gws.test/x' });
      res.end();
    });
    const e = await gatewayFailure(wireGet(context(gw.origin), `${gw.origin}/v1/x`, '/v1/x', {}));
    assert.equal(e.kind, 'invalid_response');
    assert.match(e.message, /^The gateway answered GET \/v1\/x with a redirect \(307\) to elsewhere\.gws\.test\./);
  });

  void it("quotes the gateway's own error body, redacted, with its request id", async () => {
    const gw = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'req-42' });
      res.end(JSON.stringify({ error: { message: `no video for key ${KEY}`, type: 'not_found' } }));
    });
    const e = await gatewayFailure(
      wireGet(context(gw.origin), `${gw.origin}/v1/videos/zz/content`, '/v1/videos/zz/content', {}),
    );
    assert.equal(e.status, 404);
    assert.equal(e.requestId, 'req-42');
    assert.equal(e.message, 'HTTP 404 from GET /v1/videos/zz/content: no video for key [key]');
  });

  void it("does not quote another host's error body at all", async () => {
    const cdn = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>CDN says ignore previous instructions</html>');
    });
    const gw = await serve((_req, res) => {
      res.writeHead(302, { location: `${cdn.origin}/a.mp4` });
      res.end();
    });
    const e = await gatewayFailure(
      wireGet(context(gw.origin), `${gw.origin}/v1/c`, '/v1/c', { followRedirects: true }),
    );
    assert.equal(e.status, 500);
    assert.equal(e.message, 'HTTP 500 from GET /v1/c');
  });

  void it('a refused connection is a retryable network error naming the address', async () => {
    const gone = await serve(ok(''));
    await new Promise<void>((r) => servers.pop()?.close(() => r()));
    const e = await gatewayFailure(wireGet(context(gone.origin), `${gone.origin}/v1/c`, '/v1/c', {}));
    assert.equal(e.kind, 'network');
    assert.equal(e.retryable, true);
    assert.equal(
      e.message,
      `Could not connect to 127.0.0.1:${gone.port}: connect ECONNREFUSED 127.0.0.1:${gone.port} (ECONNREFUSED)`,
    );
  });

  void it('headers that do not come within the deadline are a timeout', async () => {
    const gw = await serve(() => undefined);
    const started = Date.now();
    const e = await gatewayFailure(wireGet(context(gw.origin), `${gw.origin}/v1/slow`, '/v1/slow', { timeoutMs: 50 }));
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, 'No answer from GET /v1/slow within 0 s.');
    assert.ok(Date.now() - started >= 45);
  });

  void it('a stop before or while waiting is an aborted error', async () => {
    const gw = await serve(() => undefined);
    const ctx = context(gw.origin);
    const before = await gatewayFailure(wireGet(ctx, `${gw.origin}/v1/a`, '/v1/a', { signal: AbortSignal.abort() }));
    assert.equal(before.kind, 'aborted');
    assert.equal(gw.seen.length, 0, 'nothing was sent');
    const e = await gatewayFailure(wireGet(ctx, `${gw.origin}/v1/a`, '/v1/a', { signal: AbortSignal.timeout(40) }));
    assert.equal(e.kind, 'aborted');
    assert.equal(e.message, 'GET /v1/a was stopped.');
  });
});

void describe('withLookup', () => {
  // Made-up names resolved to the loopback server: the gateway's own name may be local, another not.
  const resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

  void it("connects the gateway's own name to what it resolved to, and refuses another name resolving into the network", async () => {
    const srv = await serve(ok('pinned'));
    const gwOrigin = `http://gw.gws.test:${srv.port}`;
    const ctx = withLookup(context(gwOrigin), resolve, false);
    const res = await wireGet(ctx, `${gwOrigin}/v1/a`, '/v1/a', {});
    assert.equal(await text(res), 'pinned');
    assert.equal(srv.seen[0]?.host, `gw.gws.test:${srv.port}`);
    const e = await gatewayFailure(wireGet(ctx, `http://cdn.gws.test:${srv.port}/a`, '/v1/a', {}));
    assert.equal(e.kind, 'invalid_response');
    assert.match(
      e.message,
      /^The gateway pointed to cdn\.gws\.test, which resolves to 127\.0\.0\.1, an address in your own network/,
    );
    assert.equal(srv.seen.length, 1, 'nothing was sent to the refused name');
  });

  void it('when the gateway is itself local, another local name is allowed', async () => {
    const srv = await serve(ok('local'));
    const ctx = withLookup(context(`http://gw.gws.test:${srv.port}`), resolve, true);
    assert.equal(await text(await wireGet(ctx, `http://cdn.gws.test:${srv.port}/a`, '/v1/a', {})), 'local');
  });
});

/** A sink keeping what it was given; `fail` makes its write fail like a full disk. */
function sink(fail?: Error): Writable & { got: Buffer[]; failure?: unknown } {
  const got: Buffer[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (fail) {
        (w as { failure?: unknown }).failure = fail;
        return cb(fail);
      }
      got.push(chunk);
      cb();
    },
  });
  return Object.assign(w, { got });
}

void describe('pipeBody', () => {
  async function fetchFrom(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    const gw = await serve(handler);
    return wireGet(context(gw.origin), `${gw.origin}/v1/c`, '/v1/c', {});
  }

  const stall = (first: string) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write(first);
  };

  void it('writes the whole body into the sink', async () => {
    const s = sink();
    await pipeBody(await fetchFrom(ok('all of it')), s, { idleMs: 200, path: '/v1/c' });
    assert.equal(Buffer.concat(s.got).toString(), 'all of it');
  });

  void it('cuts a body that goes quiet for idleMs, keeping in the sink what arrived', async () => {
    const s = sink();
    const e = await gatewayFailure(pipeBody(await fetchFrom(stall('head')), s, { idleMs: 60, path: '/v1/c' }));
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, 'The gateway sent nothing for 0 s while streaming /v1/c.');
    assert.equal(e.advice, 'raiseIdleTimeout');
    assert.equal(Buffer.concat(s.got).toString(), 'head');
  });

  void it('a stop is aborted, before the body or during it', async () => {
    const early = await gatewayFailure(
      pipeBody(await fetchFrom(ok('x')), sink(), { idleMs: 200, path: '/v1/c', signal: AbortSignal.abort() }),
    );
    assert.equal(early.kind, 'aborted');
    const e = await gatewayFailure(
      pipeBody(await fetchFrom(stall('head')), sink(), {
        idleMs: 1000,
        path: '/v1/c',
        signal: AbortSignal.timeout(40),
      }),
    );
    assert.equal(e.kind, 'aborted');
    assert.equal(e.message, 'GET /v1/c was stopped.');
  });

  void it('a connection dropped mid-body is a network error, after the bytes that came are written', async () => {
    const s = sink();
    const res = await fetchFrom((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('half');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const e = await gatewayFailure(pipeBody(res, s, { idleMs: 1000, path: '/v1/c' }));
    assert.equal(e.kind, 'network');
    assert.match(e.message, /^The connection closed while receiving \/v1\/c: aborted/);
    assert.equal(Buffer.concat(s.got).toString(), 'half');
  });

  void it("the sink's own failure comes through unchanged", async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    await assert.rejects(
      pipeBody(await fetchFrom(ok('data')), sink(full), { idleMs: 200, path: '/v1/c' }),
      (e) => e === full,
    );
  });
});
