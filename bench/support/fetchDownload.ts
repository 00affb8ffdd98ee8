/**
 * The download as it was before it moved to node:http (src/api/video/videoDownload.ts before this
 * change): the global fetch's web stream read through HttpClient.body, each chunk awaited into the
 * old promise-per-chunk write-behind, then an fsync. Kept only so the bench measures old and new
 * in the same run; checks that do not cost time (the video signature, l10n errors) are left out.
 */
import { promises as fs } from 'node:fs';
import type { HttpClient } from '../../src/api/transport/http';

const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

class OldWriteBehind {
  private queue: Uint8Array[] = [];
  private queued = 0;
  private inFlight: Promise<void> | undefined;
  private error: unknown;

  constructor(private readonly fh: fs.FileHandle) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (this.error !== undefined) throw this.error;
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    this.pump();
    while (this.queued > MAX_QUEUED_BYTES && this.inFlight) await this.inFlight;
    if (this.error !== undefined) throw this.error;
  }

  async drain(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.error !== undefined) throw this.error;
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0 || this.error !== undefined) return;
    const bufs = this.queue;
    this.queue = [];
    this.queued = 0;
    this.inFlight = this.fh.writev(bufs).then(
      () => {
        this.inFlight = undefined;
        this.pump();
      },
      (e: unknown) => {
        this.error = e;
        this.inFlight = undefined;
      },
    );
  }
}

/** The old path: fetch, its web stream, the promise-per-chunk write-behind, fsync. */
export async function fetchDownload(http: HttpClient, url: string, file: string): Promise<number> {
  const res = await http.request('GET', url, {
    accept: 'video/mp4, video/*, application/octet-stream',
    followRedirects: true,
  });
  const total = Number(res.headers.get('content-length'));
  const fh = await fs.open(file, 'wx');
  let received = 0;
  try {
    const writer = new OldWriteBehind(fh);
    for await (const chunk of http.body(res)) {
      await writer.write(chunk);
      received += chunk.byteLength;
    }
    await writer.drain();
    if (received !== total) throw new Error(`old path: ${received} of ${total} bytes`);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return received;
}
