// Size limits (gatewayStudio.chat.maxAnswerMegabytes, gatewayStudio.video.maxDownloadMegabytes):
// a streamed answer past its limit stops and keeps what arrived; a video past its limit is not
// saved, and nothing of it is left on disk. Real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GatewayClient } from '../../../src/api/client';
import { VideoClient } from '../../../src/api/video/video';
import { describeError } from '../../../src/contracts/errorWords';
import { gatewayFailure } from '../../support/helpers';
import { saveTo } from '../../../src/video/jobs/core/saveDownload';

const servers: { close(): void }[] = [];
after(() => servers.forEach((s) => s.close()));

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const MP4_HEAD = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]);

void describe('size limits', () => {
  void it('a streamed answer past maxAnswerBytes stops there, keeps what arrived and names the setting', async () => {
    let sent = 0;
    let closedEarly = false;
    const url = await serve((_q, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.on('close', () => (closedEarly = !res.writableEnded));
      const chunk = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(1000) } }] })}\n\n`;
      // An endless answer: without the limit this would only end after 20 MB.
      const pump = () => {
        while (!res.destroyed && sent < 20_000_000) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('data: [DONE]\n\n');
      };
      pump();
    });
    const client = new GatewayClient({ baseUrl: url, maxRetries: 0, maxAnswerBytes: 64 * 1024 });
    const e = await gatewayFailure(client.streamChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(e.kind, 'truncated');
    assert.match(e.message, /0\.06 MB.*gatewayStudio\.chat\.maxAnswerMegabytes/);
    const kept = (e.partial?.message.content as string | undefined) ?? '';
    assert.ok(kept.length > 30_000 && kept.length <= 64 * 1024, `kept ${kept.length} characters`);
    assert.match(kept, /^x+$/);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(closedEarly && sent < 20_000_000, `the stream went on (${sent} bytes sent)`);
    assert.match(describeError(e).detail, /raise gatewayStudio\.chat\.maxAnswerMegabytes in your user settings/);
  });

  for (const announced of [true, false]) {
    void it(`a video past maxDownloadBytes is not saved and leaves no file (${announced ? 'Content-Length' : 'chunked'})`, async () => {
      const body = Buffer.concat([MP4_HEAD, Buffer.alloc(200_000, 1)]);
      const url = await serve((_q, res) => {
        res.setHeader('Content-Type', 'video/mp4');
        if (announced) res.setHeader('Content-Length', body.length);
        // Sent in parts, so a chunked body passes the limit while it streams.
        let at = 0;
        const next = () => {
          if (res.destroyed) return;
          if (at >= body.length) return void res.end();
          res.write(body.subarray(at, at + 16_384), () => setImmediate(next));
          at += 16_384;
        };
        next();
      });
      const http = new GatewayClient({ baseUrl: url, maxRetries: 0, maxDownloadBytes: 100_000 }).http;
      const dir = mkdtempSync(join(tmpdir(), 'gws-limit-'));
      const e = await gatewayFailure(
        new VideoClient(http).download('vid_1', saveTo(join(dir, 'clip.mp4')), { videoId: 'vid_1' }),
      );
      assert.equal(e.kind, 'config');
      assert.equal(e.field, 'gatewayStudio.video.maxDownloadMegabytes');
      assert.match(
        e.message,
        /larger than 0\.1 MB.*gatewayStudio\.video\.maxDownloadMegabytes.*not saved.*task is kept/,
      );
      assert.equal(existsSync(join(dir, 'clip.mp4')), false);
      assert.deepEqual(readdirSync(dir), [], 'a temporary file was left');
    });
  }
});
