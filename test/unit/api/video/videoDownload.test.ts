// The download over node:http: a connection dropped mid-body is resumed with Range when the server
// allows it (a valid 206 appended; a 200 or a 206 that does not fit starts over), a body shorter
// than its Content-Length is `truncated`, the idle watchdog and a stop still end it, and the key
// never leaves the gateway's origin, on the first request or a resumed one, however redirects go.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { existsSync, promises as fsp, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HttpClient } from '../../../../src/api/transport/http';
import { VideoClient } from '../../../../src/api/video/video';
import { mp4Header } from '../../../gateway/video';
import { finishedVideo, gatewayFailure, useGateway, useTempDir } from '../../../support/helpers';
import { saveTo } from '../../../../src/video/jobs/core/saveDownload';

const gw = useGateway({ videoStepMs: 20, videoSteps: 1 });
const tmp = useTempDir('gs-video-download-');
const KEY = 'gw-download-key-0123456789';
const MiB = 1024 * 1024;

function client(o: { baseUrl?: string; key?: string; idleTimeoutMs?: number } = {}): VideoClient {
  return new VideoClient(
    new HttpClient({
      baseUrl: o.baseUrl ?? gw.videoUrl,
      apiKey: o.key ?? gw.keys.valid,
      maxRetries: 0,
      idleTimeoutMs: o.idleTimeoutMs,
      random: () => 0,
    }),
  );
}

/** The bytes of the gateway's generated `size`-byte MP4. */
function generated(size: number): Buffer {
  const out = Buffer.alloc(size);
  mp4Header(size).copy(out);
  return out;
}

const contentHits = () => gw.requests().filter((r) => r.route === '/v1/videos/:id/content');

void describe('video download: Range resume', () => {
  void it('a connection dropped mid-body under Accept-Ranges is resumed with Range and If-Range, and the file is whole', async () => {
    const c = client();
    const id = await finishedVideo(c, 'resume fox');
    const size = 3 * MiB;
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true, contentTruncate: MiB + 5 });
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true });
    const dest = join(tmp.fresh('resume'), 'v.mp4');
    let last = 0;
    const d = await c.download(id, saveTo(dest), { onProgress: (n) => (last = n) });
    assert.equal(d.bytes, size);
    assert.ok(readFileSync(dest).equals(generated(size)), 'the resumed file is byte for byte the video');
    assert.equal(last, size, 'progress reached the end');
    const hits = contentHits();
    assert.equal(hits.length, 2, 'one request, one resume: not a second full download');
    assert.equal(hits[0]?.headers.range, undefined);
    const from = Number(/^bytes=(\d+)-$/.exec(hits[1]?.headers.range ?? '')?.[1]);
    assert.ok(from > 0 && from <= MiB + 5, `the resume asked for the rest (${hits[1]?.headers.range})`);
    assert.equal(hits[1]?.headers['if-range'], `"${id}-${size}"`, 'If-Range carries the ETag');
    assert.equal(hits[1]?.auth, 'valid', 'the resume to the gateway itself carries the key');
  });

  void it('without Accept-Ranges a drop is reported as truncated, as before (the job retries it whole)', async () => {
    const c = client();
    const id = await finishedVideo(c, 'no ranges fox');
    gw.fault({ match: { path: '/content' }, contentSize: 2 * MiB, contentTruncate: MiB });
    const dir = tmp.fresh('noranges');
    const e = await gatewayFailure(c.download(id, saveTo(join(dir, 'v.mp4'))));
    assert.equal(e.kind, 'truncated');
    assert.match(e.message, /stopped after \d+ of 2097152 bytes/);
    assert.equal(contentHits().length, 1);
    assert.deepEqual(readdirSync(dir), [], 'no partial file is left');
  });

  void it('a server that answers the Range with a whole 200 is taken from the start, not appended', async () => {
    const c = client();
    const id = await finishedVideo(c, 'ignored range fox');
    const size = 2 * MiB;
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true, contentTruncate: MiB });
    gw.fault({ match: { path: '/content' }, contentSize: size });
    const dest = join(tmp.fresh('ignored'), 'v.mp4');
    const d = await c.download(id, saveTo(dest));
    assert.equal(d.bytes, size);
    assert.ok(readFileSync(dest).equals(generated(size)));
    assert.equal(contentHits().length, 2);
  });

  void it('a 206 whose Content-Range does not start where the file ends is dropped, and the whole video asked for again', async () => {
    const c = client();
    const id = await finishedVideo(c, 'bad range fox');
    const size = 2 * MiB;
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true, contentTruncate: MiB });
    gw.fault({ match: { path: '/content' }, contentSize: size, acceptRanges: true, wrongContentRange: true });
    gw.fault({ match: { path: '/content' }, contentSize: size });
    const dest = join(tmp.fresh('badrange'), 'v.mp4');
    const d = await c.download(id, saveTo(dest));
    assert.equal(d.bytes, size);
    assert.ok(readFileSync(dest).equals(generated(size)), 'no misplaced bytes were appended');
    const hits = contentHits();
    assert.equal(hits.length, 3);
    assert.match(hits[1]?.headers.range ?? '', /^bytes=\d+-$/);
    assert.equal(hits[2]?.headers.range, undefined, 'the restart asks for the whole video');
  });

  void it('drops that keep coming end as truncated after a bounded number of resumes', async () => {
    const c = client();
    const id = await finishedVideo(c, 'flaky fox');
    gw.fault({
      match: { path: '/content' },
      contentSize: 8 * MiB,
      acceptRanges: true,
      contentTruncate: 64 * 1024,
      times: -1,
    });
    const dir = tmp.fresh('flaky');
    const e = await gatewayFailure(c.download(id, saveTo(join(dir, 'v.mp4'))));
    assert.equal(e.kind, 'truncated');
    assert.equal(contentHits().length, 6, 'the first request and 5 resumes');
    assert.deepEqual(readdirSync(dir), []);
  });
});

void describe('video download: length, idle, stop', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  void it('a body that ends cleanly before its Content-Length is truncated, and nothing is saved', async () => {
    // A raw server: headers promising 100,000 bytes, 40,000 sent, then a clean FIN.
    const srv = createTcpServer((sock) => {
      sock.once('data', () => {
        sock.write('HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n');
        sock.end(generated(100_000).subarray(0, 40_000));
      });
    });
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const dir = tmp.fresh('short');
    const e = await gatewayFailure(client({ baseUrl: base }).download('vid_short', saveTo(join(dir, 'v.mp4'))));
    assert.equal(e.kind, 'truncated');
    assert.match(e.message, /stopped after 40000 of 100000 bytes/);
    assert.deepEqual(readdirSync(dir), []);
  });

  void it('a body cut while the file is slow to open still counts the bytes that arrived (a loaded disk)', async () => {
    // The whole short body and the FIN arrive at once; the file takes 300 ms to open. Opening it
    // during the request left the answer unread across that wait, and the closed connection took
    // its 40,000 buffered bytes: "stopped after 0".
    const srv = createTcpServer((sock) => {
      sock.once('data', () => {
        sock.end(
          Buffer.concat([
            Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 100000\r\n\r\n'),
            generated(100_000).subarray(0, 40_000),
          ]),
        );
      });
    });
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const dir = tmp.fresh('slow-open');
    const open = fsp.open;
    fsp.open = (async (...args: Parameters<typeof open>) => {
      await new Promise((r) => setTimeout(r, 300));
      return open(...args);
    }) as typeof open;
    try {
      const e = await gatewayFailure(client({ baseUrl: base }).download('vid_slow', saveTo(join(dir, 'v.mp4'))));
      assert.equal(e.kind, 'truncated');
      assert.match(e.message, /stopped after 40000 of 100000 bytes/);
    } finally {
      fsp.open = open;
    }
    assert.deepEqual(readdirSync(dir), []);
  });

  void it('a body that goes silent past the idle timeout is a timeout; a stop is aborted; neither leaves a file', async () => {
    const c = client({ idleTimeoutMs: 300 });
    const id = await finishedVideo(c, 'silent fox');
    gw.fault({ match: { path: '/content' }, contentStallAfterBytes: 1000 });
    const dir = tmp.fresh('silent');
    const t0 = Date.now();
    const idle = await gatewayFailure(c.download(id, saveTo(join(dir, 'v.mp4'))));
    assert.equal(idle.kind, 'timeout');
    assert.ok(Date.now() - t0 < 5000);
    gw.fault({ match: { path: '/content' }, contentStallAfterBytes: 1000 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 100);
    const stopped = await gatewayFailure(client().download(id, saveTo(join(dir, 'w.mp4')), { signal: ctrl.signal }));
    assert.equal(stopped.kind, 'aborted');
    assert.deepEqual(readdirSync(dir), []);
  });
});

void describe('video download: the key and redirects', () => {
  interface Hit {
    url: string;
    authorization?: string;
    range?: string;
  }
  const servers: { close(): void }[] = [];
  after(() => servers.forEach((s) => s.close()));

  async function serve(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
    const hits: Hit[] = [];
    const server = createHttpServer((req, res) => {
      hits.push({ url: req.url ?? '', authorization: req.headers.authorization, range: req.headers.range });
      handle(req, res, hits.length);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
  }

  const VIDEO = generated(300_000);

  void it('a redirect to another origin never carries the key, not on the first request nor on the resumed one', async () => {
    // The storage host cuts the first answer at 100,000 bytes, then serves the rest as a 206.
    const cdn = await serve((req, res, n) => {
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const from = range ? Number(range[1]) : 0;
      res.writeHead(range ? 206 : 200, {
        'content-type': 'video/mp4',
        'content-length': String(VIDEO.length - from),
        'accept-ranges': 'bytes',
        etag: '"v1"',
        ...(range ? { 'content-range': `bytes ${from}-${VIDEO.length - 1}/${VIDEO.length}` } : {}),
      });
      if (n === 1) res.write(VIDEO.subarray(0, 100_000), () => res.destroy());
      else res.end(VIDEO.subarray(from));
    });
    const gateway = await serve((_req, res) => {
      res.writeHead(302, { location: `${cdn.url}/signed/v.mp4?sig=1` });
      res.end();
    });
    const dest = join(tmp.fresh('redirect'), 'v.mp4');
    const d = await client({ baseUrl: gateway.url, key: KEY }).download('vid_1', saveTo(dest), { videoId: 'vid_1' });
    assert.equal(d.bytes, VIDEO.length);
    assert.ok(readFileSync(dest).equals(VIDEO));
    assert.equal(cdn.hits.length, 2, 'the storage host was asked twice (the second time for the rest)');
    assert.match(cdn.hits[1]?.range ?? '', /^bytes=\d+-$/);
    assert.deepEqual(
      cdn.hits.map((h) => h.authorization),
      [undefined, undefined],
      'the key never reached the storage host',
    );
    assert.deepEqual(
      gateway.hits.map((h) => h.authorization),
      [`Bearer ${KEY}`, `Bearer ${KEY}`],
      'the resume went through the gateway again, which is the only one to get the key',
    );
  });

  void it('a redirect back to the gateway origin carries the key again (the rule is per hop), the other host in between never does', async () => {
    let gatewayUrl = '';
    const other = await serve((_req, res) => {
      res.writeHead(307, { location: `${gatewayUrl}/files/v.mp4` });
      res.end();
    });
    const gateway = await serve((req, res) => {
      if (req.url?.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(VIDEO.length) });
        res.end(VIDEO);
        return;
      }
      res.writeHead(302, { location: `${other.url}/hop` });
      res.end();
    });
    gatewayUrl = gateway.url;
    const dest = join(tmp.fresh('hops'), 'v.mp4');
    await client({ baseUrl: gateway.url, key: KEY }).download('vid_2', saveTo(dest), { videoId: 'vid_2' });
    assert.ok(readFileSync(dest).equals(VIDEO));
    assert.equal(other.hits[0]?.authorization, undefined);
    assert.deepEqual(
      gateway.hits.map((h) => h.authorization),
      [`Bearer ${KEY}`, `Bearer ${KEY}`],
    );
    assert.equal(existsSync(`${dest}.part`), false);
  });
});
