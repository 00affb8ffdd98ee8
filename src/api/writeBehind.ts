import type { promises as fs } from 'node:fs';

/** How much of a download may wait in memory for the disk before reading pauses. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/**
 * Writes a download to its file while the next bytes are read. Awaiting each network chunk's
 * write (16-64 KB) left the socket idle during every disk write; here a chunk is written at once
 * when the disk is free (so a stalled download's bytes are on disk, as its `.part` shows), and
 * chunks that arrive meanwhile go out together in the next `writev`. Reading waits only when
 * more than {@link MAX_QUEUED_BYTES} are waiting, so memory stays bounded.
 */
export class WriteBehind {
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

  /** Resolves when every byte is written; throws the first write error. */
  async drain(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    if (this.error !== undefined) throw this.error;
  }

  /** Resolves when no write is running (used before closing the file on any path). */
  async settled(): Promise<void> {
    this.queue = [];
    while (this.inFlight) await this.inFlight;
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0 || this.error !== undefined) return;
    const bufs = this.queue;
    this.queue = [];
    this.queued = 0;
    this.inFlight = writeAll(this.fh, bufs).then(
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

/**
 * `writev` until every byte is on disk. A write may take fewer bytes than it was given and still
 * succeed (a file system that is nearly full writes what fits, and only the next call fails with
 * ENOSPC): ignoring the count saved a 3 MB video as its first 1 MB, reported as complete.
 */
async function writeAll(fh: fs.FileHandle, bufs: Uint8Array[]): Promise<void> {
  let rest = bufs;
  while (rest.length > 0) {
    const total = rest.reduce((n, b) => n + b.byteLength, 0);
    const { bytesWritten } = await fh.writev(rest);
    if (bytesWritten >= total) return;
    if (bytesWritten <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write (nothing was written)'), {
        code: 'ENOSPC',
        syscall: 'write',
      });
    rest = after(rest, bytesWritten);
  }
}

/** The buffers left once the first `n` bytes of `bufs` are written. */
function after(bufs: Uint8Array[], n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let skip = n;
  for (const b of bufs) {
    if (skip >= b.byteLength) {
      skip -= b.byteLength;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
