// Resuming a dropped download with Range over a real loopback server: what a full answer allows
// (bodyMeta), a valid 206 accepted from where the file ends, a 200 taken from the start, a
// misplaced Content-Range refused and the whole file asked for again, and a server that answers
// even that with a 206 refused.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { bodyMeta, resumeFrom, type BodyMeta } from '../../../../src/api/transport/rangeResume';
import { wireGet, type WireContext, type WireResponse } from '../../../../src/api/transport/wireGet';
import { gatewayFailure } from '../../../support/helpers';

const FILE = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

/** How the server answers a request with Range: a fitting 206, a whole 200, or a 206 from `from`. */
type Mode = { kind: 'fit' } | { kind: 'whole' } | { kind: 'misplaced'; from: number; alsoWithoutRange?: boolean };

/** A server of FILE; `headers` are those of its full answer. Returns its URL and the requests it saw. */
async function serve(mode: Mode, headers: Record<string, string> = {}) {
  const seen: IncomingHttpHeaders[] = [];
  const srv = createServer((req, res) => {
    seen.push(req.headers);
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const partial = (from: number) => {
      res.writeHead(206, { 'content-range': `bytes ${from}-${FILE.length - 1}/${FILE.length}` });
      res.end(FILE.subarray(from));
    };
    if (m && mode.kind === 'fit') return partial(Number(m[1]));
    if (mode.kind === 'misplaced' && (m || mode.alsoWithoutRange)) return partial(mode.from);
    res.writeHead(200, { 'content-length': String(FILE.length), ...headers });
    res.end(FILE);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/videos/v1/content`, seen };
}

function context(url: string): WireContext {
  const origin = new URL(url).origin;
  return {
    baseUrl: origin,
    origin,
    redact: (t) => t,
    authorization: () => undefined,
    timeoutMs: 2000,
    log: () => undefined,
  };
}

const getter = (url: string) => (headers?: Record<string, string>) =>
  wireGet(context(url), url, '/v1/videos/v1/content', { headers });

async function bodyOf(res: WireResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of res.body) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

const META: BodyMeta = { total: FILE.length, ranges: true, validator: '"v1-1000"' };

void describe('bodyMeta', () => {
  void it('a full answer with Content-Length and Accept-Ranges: bytes may be resumed, If-Range on its strong ETag', async () => {
    const { url } = await serve({ kind: 'whole' }, { 'accept-ranges': 'bytes', etag: '"v1-1000"' });
    const res = await getter(url)();
    res.body.resume();
    assert.deepEqual(bodyMeta(res), { total: 1000, ranges: true, validator: '"v1-1000"' });
  });

  void it('a weak ETag is not a validator: Last-Modified is used instead', async () => {
    const lastModified = 'Wed, 21 Oct 2026 07:28:00 GMT';
    const { url } = await serve(
      { kind: 'whole' },
      { 'accept-ranges': 'Bytes', etag: 'W/"v1"', 'last-modified': lastModified },
    );
    const res = await getter(url)();
    res.body.resume();
    assert.deepEqual(bodyMeta(res), { total: 1000, ranges: true, validator: lastModified });
  });

  void it('without Accept-Ranges, or with Accept-Ranges: none, a drop is not resumed', async () => {
    for (const headers of [{}, { 'accept-ranges': 'none' }] as Record<string, string>[]) {
      const { url } = await serve({ kind: 'whole' }, headers);
      const res = await getter(url)();
      res.body.resume();
      assert.deepEqual(bodyMeta(res), { total: 1000, ranges: false, validator: undefined });
    }
  });

  void it('a body without a length (chunked) is not resumed even under Accept-Ranges', async () => {
    const srv = createServer((_req, res) => {
      res.writeHead(200, { 'accept-ranges': 'bytes', 'transfer-encoding': 'chunked' });
      res.end(FILE);
    });
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const res = await getter(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/x`)();
    res.body.resume();
    assert.deepEqual(bodyMeta(res), { total: undefined, ranges: false, validator: undefined });
  });
});

void describe('resumeFrom', () => {
  void it('asks for the rest with Range and If-Range and accepts a 206 that starts where the file ends', async () => {
    const { url, seen } = await serve({ kind: 'fit' });
    const logs: string[] = [];
    const { res, from } = await resumeFrom(getter(url), {
      written: 400,
      meta: META,
      shown: 'v1',
      log: (m) => logs.push(m),
    });
    assert.equal(from, 400);
    assert.equal(res.status, 206);
    assert.ok((await bodyOf(res)).equals(FILE.subarray(400)), 'the body is the rest of the file');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.range, 'bytes=400-');
    assert.equal(seen[0]?.['if-range'], '"v1-1000"');
    assert.deepEqual(logs, []);
  });

  void it('sends no If-Range when the full answer gave no validator', async () => {
    const { url, seen } = await serve({ kind: 'fit' });
    const { res, from } = await resumeFrom(getter(url), {
      written: 10,
      meta: { ...META, validator: undefined },
      shown: 'v1',
      log: () => undefined,
    });
    res.body.resume();
    assert.equal(from, 10);
    assert.equal(seen[0]?.['if-range'], undefined);
  });

  void it('a server that ignores Range and answers 200 is taken from the start', async () => {
    const { url, seen } = await serve({ kind: 'whole' });
    const { res, from } = await resumeFrom(getter(url), {
      written: 400,
      meta: META,
      shown: 'v1',
      log: () => undefined,
    });
    assert.equal(from, 0);
    assert.equal(res.status, 200);
    assert.ok((await bodyOf(res)).equals(FILE));
    assert.equal(seen.length, 1);
  });

  void it('refuses a 206 whose Content-Range does not start where the file ends, and asks for the whole file', async () => {
    const { url, seen } = await serve({ kind: 'misplaced', from: 300 });
    const logs: string[] = [];
    const { res, from } = await resumeFrom(getter(url), {
      written: 400,
      meta: META,
      shown: 'v1',
      log: (m) => logs.push(m),
    });
    assert.equal(from, 0);
    assert.equal(res.status, 200);
    assert.ok((await bodyOf(res)).equals(FILE));
    assert.deepEqual(logs, ['GET v1: asked for bytes 400- and got Content-Range "bytes 300-999/1000"; starting over']);
    assert.equal(seen.length, 2);
    assert.equal(seen[1]?.range, undefined, 'the second request asks for the whole file');
  });

  void it('refuses a 206 for another length than the full answer stated', async () => {
    const { url } = await serve({ kind: 'fit' });
    const logs: string[] = [];
    const { res, from } = await resumeFrom(getter(url), {
      written: 400,
      meta: { ...META, total: 2000 },
      shown: 'v1',
      log: (m) => logs.push(m),
    });
    res.body.resume();
    assert.equal(from, 0);
    assert.match(logs[0] ?? '', /got Content-Range "bytes 400-999\/1000"; starting over/);
  });

  void it('a server that answers the request without Range with a 206 too is refused: nothing saved', async () => {
    const { url, seen } = await serve({ kind: 'misplaced', from: 300, alsoWithoutRange: true });
    const e = await gatewayFailure(
      resumeFrom(getter(url), { written: 400, meta: META, shown: 'v1', log: () => undefined }),
    );
    assert.equal(e.kind, 'invalid_response');
    assert.equal(e.status, 206);
    assert.equal(e.message, 'v1 answered a download without Range with a partial body (206); nothing was saved.');
    assert.equal(seen.length, 2);
  });
});
