// The streamed body's idle watchdog over a real loopback server: a stream that goes quiet is cut
// after its timeout, short gaps are kept, a stop, a dropped connection and a body past its size
// limit each end it with their own error, and the request is always ended after.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { idleBody, type RequestLink } from '../../../../src/api/transport/idleBody';
import { gatewayFailure } from '../../../support/helpers';

const servers: Server[] = [];
after(() =>
  servers.forEach((s) => {
    s.closeAllConnections();
    s.close();
  }),
);

/** A loopback server answering every request with `handler`; resolves with its URL. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const srv = createServer(handler);
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/stream`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `parts` `gapMs` apart, then ends the body unless `end` is false. */
function drip(parts: string[], gapMs: number, end = true) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    void (async () => {
      for (const p of parts) {
        if (res.destroyed) return;
        res.write(p);
        await sleep(gapMs);
      }
      if (end) res.end();
    })();
  };
}

/** A request whose link records whether it was ended and unlinked. */
async function open(url: string): Promise<{ res: Response; link: RequestLink; unlinked: () => boolean }> {
  const ctrl = new AbortController();
  let unlinked = false;
  const res = await fetch(url, { signal: ctrl.signal });
  return { res, link: { ctrl, unlink: () => (unlinked = true) }, unlinked: () => unlinked };
}

/** Reads the body, keeping what arrived (decoded) before it ended or failed. */
async function drain(body: AsyncGenerator<Uint8Array>, got: string[], onChunk?: () => void): Promise<void> {
  const dec = new TextDecoder();
  for await (const c of body) {
    got.push(dec.decode(c));
    onChunk?.();
  }
}

void describe('idleBody', () => {
  void it('yields the whole body of a stream whose gaps stay under the idle timeout, then ends the request', async () => {
    const url = await serve(drip(['a', 'b', 'c', 'd', 'e', 'f'], 20));
    const { res, link, unlinked } = await open(url);
    const got: string[] = [];
    await drain(idleBody(res, link, { idleMs: 400, path: '/v1/stream' }), got);
    assert.equal(got.join(''), 'abcdef');
    assert.ok(link.ctrl.signal.aborted, 'the connection is ended');
    assert.ok(unlinked(), "the user's signal is unlinked");
  });

  void it('cuts a stream that sends nothing for its idle timeout, keeping what came before', async () => {
    // One chunk, then silence with the connection open (no timer of the server's keeps the run alive).
    const url = await serve(drip(['first '], 0, false));
    const { res, link } = await open(url);
    const got: string[] = [];
    const started = Date.now();
    const e = await gatewayFailure(drain(idleBody(res, link, { idleMs: 60, path: '/v1/stream' }), got));
    const took = Date.now() - started;
    assert.equal(e.kind, 'timeout');
    assert.equal(e.message, 'The gateway sent nothing for 0 s while streaming /v1/stream.');
    assert.equal(e.advice, 'raiseIdleTimeout');
    assert.equal(e.path, '/v1/stream');
    assert.equal(got.join(''), 'first ');
    assert.ok(took >= 55 && took < 2000, `cut after its timeout (${took} ms)`);
    assert.ok(link.ctrl.signal.aborted, 'the request was aborted');
  });

  void it('a stop through the signal mid-stream is an aborted error', async () => {
    const url = await serve(drip(['one', 'two', 'three', 'four'], 30));
    const { res, link } = await open(url);
    const stop = new AbortController();
    const got: string[] = [];
    const e = await gatewayFailure(
      drain(idleBody(res, link, { idleMs: 1000, path: '/v1/stream', signal: stop.signal }), got, () => stop.abort()),
    );
    assert.equal(e.kind, 'aborted');
    assert.equal(e.message, 'GET /v1/stream was stopped.');
    // Stopped at the first chunk (a loaded machine may deliver 'one' and 'two' together).
    assert.equal(got.length, 1);
    assert.match(got[0] ?? '', /^one/);
    assert.doesNotMatch(got[0] ?? '', /four/);
  });

  void it('a signal already stopped ends the body before its first chunk', async () => {
    const url = await serve(drip(['never read'], 10));
    const { res, link } = await open(url);
    const got: string[] = [];
    const e = await gatewayFailure(
      drain(idleBody(res, link, { idleMs: 1000, path: '/v1/stream', signal: AbortSignal.abort() }), got),
    );
    assert.equal(e.kind, 'aborted');
    assert.deepEqual(got, []);
  });

  void it('a connection the server drops mid-body is a network error saying so', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { res, link } = await open(url);
    const got: string[] = [];
    const e = await gatewayFailure(drain(idleBody(res, link, { idleMs: 1000, path: '/v1/stream' }), got));
    assert.equal(e.kind, 'network');
    assert.match(e.message, /^The connection closed while receiving \/v1\/stream: terminated/);
    assert.equal(got.join(''), 'partial');
  });

  void it('a body past maxBytes is stopped there as truncated, naming the setting', async () => {
    const MiB = 1024 * 1024;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(MiB / 2, 1));
      setTimeout(() => res.end(Buffer.alloc(MiB, 2)), 20);
    });
    const { res, link } = await open(url);
    let received = 0;
    const body = idleBody(res, link, { idleMs: 1000, path: '/v1/stream', maxBytes: MiB });
    const e = await gatewayFailure(
      (async () => {
        for await (const c of body) received += c.byteLength;
      })(),
    );
    assert.equal(e.kind, 'truncated');
    assert.equal(e.field, 'gatewayStudio.chat.maxAnswerMegabytes');
    assert.equal(e.advice, 'raiseSizeLimit');
    assert.match(
      e.message,
      /^The answer from \/v1\/stream passed 1 MB, the limit set by gatewayStudio\.chat\.maxAnswerMegabytes/,
    );
    assert.ok(received >= MiB / 2 && received <= MiB, `what came within the limit was yielded (${received})`);
    assert.ok(link.ctrl.signal.aborted);
  });

  void it('a response without a body yields nothing', async () => {
    const got: string[] = [];
    await drain(idleBody(new Response(null, { status: 204 }), undefined, { idleMs: 20, path: '/v1/none' }), got);
    assert.deepEqual(got, []);
  });
});
