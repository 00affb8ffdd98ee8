// Server-given URLs are judged by the address their name resolves to, at connect time, with the
// connection pinned to what was checked. Real HTTP on 127.0.0.1; names resolve through an injected
// resolver (`resolve`), so no request leaves the machine.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { pinnedLookup } from '../../../../src/api/transport/pinnedLookup';
import { VideoClient } from '../../../../src/api/video/video';
import { gatewayFailure } from '../../../support/helpers';
import { saveTo } from '../../../../src/video/jobs/core/saveDownload';

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]), Buffer.alloc(64, 1)]);
const KEY = 'gw-plain-key-0123456789';
const servers: { close(): void }[] = [];
after(() => servers.forEach((s) => s.close()));

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, hits };
}

/** A resolver that answers from `table` and counts its calls per name. */
function resolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    const list = table[host];
    if (!list) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { resolve, calls };
}

const dest = () => join(mkdtempSync(join(tmpdir(), 'gws-lookup-')), 'clip.mp4');

void describe('result URLs judged by the resolved address', () => {
  void it('a public-looking name that resolves to 127.0.0.1 is refused before any connection (public gateway)', async () => {
    const local = await serve((_q, res) => res.end(MP4));
    const dns = resolver({ 'cdn.test': ['127.0.0.1'], 'gw.example.com': ['93.184.215.14'] });
    // The gateway is never contacted: the download is of the result URL alone.
    const client = new GatewayClient({
      baseUrl: 'https://gw.example.com/v1',
      apiKey: KEY,
      maxRetries: 0,
      resolve: dns.resolve,
    });
    const video = new VideoClient(client.http);
    const e = await gatewayFailure(video.download(`http://cdn.test:${local.port}/x.mp4`, saveTo(dest())));
    assert.match(e.message, /cdn\.test.*127\.0\.0\.1.*your own network/);
    assert.equal(e.kind, 'invalid_response');
    assert.equal(local.hits.length, 0, 'the local server was reached');
    assert.deepEqual(dns.calls, ['cdn.test'], 'one lookup, and not retried');
  });

  void it('a name answering a public and a metadata address is refused whole (no rebinding between the two)', async () => {
    const dns = resolver({ 'cdn.test': ['93.184.215.14', '169.254.169.254'] });
    const client = new GatewayClient({ baseUrl: 'https://gw.example.com/v1', maxRetries: 0, resolve: dns.resolve });
    const e = await gatewayFailure(new VideoClient(client.http).download('http://cdn.test:9/x.mp4', saveTo(dest())));
    assert.match(e.message, /169\.254\.169\.254/);
  });

  void it('a redirect from the gateway to a name that resolves to loopback is refused, the other server gets nothing', async () => {
    const inner = await serve((_q, res) => res.end(MP4));
    const gw = await serve((_q, res) => {
      res.statusCode = 302;
      res.setHeader('Location', `http://metadata.test:${inner.port}/latest`);
      res.end();
    });
    // The gateway has a name (not a local address as written); the resolver puts it on 127.0.0.1.
    const dns = resolver({ 'gw.test': ['127.0.0.1'], 'metadata.test': ['::ffff:127.0.0.1'] });
    const client = new GatewayClient({
      baseUrl: `http://gw.test:${gw.port}/v1`,
      allowInsecureHttp: true,
      apiKey: KEY,
      maxRetries: 0,
      resolve: dns.resolve,
    });
    const e = await gatewayFailure(new VideoClient(client.http).download('vid_1', saveTo(dest())));
    assert.match(e.message, /metadata\.test.*::ffff:127\.0\.0\.1/);
    assert.equal(gw.hits.length, 1);
    assert.equal(inner.hits.length, 0);
  });

  void it('a local gateway may point at a name that resolves to 127.0.0.1; the socket goes where the one lookup said', async () => {
    const cdn = await serve((_q, res) => {
      res.setHeader('Content-Type', 'video/mp4');
      res.end(MP4);
    });
    const dns = resolver({ 'cdn.test': ['127.0.0.1'] });
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 0, resolve: dns.resolve });
    const file = dest();
    const r = await new VideoClient(client.http).download(`http://cdn.test:${cdn.port}/x.mp4`, saveTo(file));
    assert.equal(r.bytes, MP4.length);
    assert.deepEqual(readFileSync(file), MP4);
    assert.deepEqual(dns.calls, ['cdn.test']);
    assert.equal(cdn.hits.length, 1);
  });
});

void describe('pinnedLookup', () => {
  void it('hands the socket exactly the checked addresses, in both callback forms', async () => {
    const dns = resolver({ 'cdn.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    const lookup = pinnedLookup(dns.resolve, false);
    const all = await new Promise<unknown>((ok, no) =>
      lookup('cdn.test', { all: true }, (err, addr) => (err ? no(err) : ok(addr))),
    );
    assert.deepEqual(all, [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const one = await new Promise<unknown>((ok, no) =>
      lookup('cdn.test', { family: 6 }, (err, addr, family) => (err ? no(err) : ok([addr, family]))),
    );
    assert.deepEqual(one, ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
  });
});
