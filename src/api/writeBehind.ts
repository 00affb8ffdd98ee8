import type { promises as fs } from 'node:fs';
import { Writable } from 'node:stream';

/** How much of a download may wait in memory for the disk before reading pauses. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/**
 * The file end of a download's `stream.pipeline`: writes a chunk at once when the disk is free (so
 * a stalled download's bytes are on disk, as its `.part` shows), and the chunks that arrive
 * meanwhile go out together in the next `writev` (Writable buffers them and calls `_writev`): the
 * socket is never idle during a disk write, and there is one promise per disk write, not per
 * network chunk. Past {@link MAX_QUEUED_BYTES} waiting, `write` returns false and the pipeline
 * pauses the socket, so memory stays bounded. Writes go at explicit positions from `position`
 * (a resumed download appends where the last one stopped). The file handle stays the caller's.
 */
export class WriteBehind extends Writable {
  /** Where the next byte goes; after `settled()`, how far the file is written. */
  position: number;
  /** The first error this sink failed with (a full disk, or what `check` threw). */
  failure: unknown;
  private inFlight: Promise<void> | undefined;
  /** Sees every chunk before it is written; what it throws fails the sink (not a video). */
  private readonly check: ((chunk: Uint8Array) => void) | undefined;
  /** Told the new end of the written bytes after each disk write (progress). */
  private readonly onWritten: ((position: number) => void) | undefined;

  constructor(
    private readonly fh: fs.FileHandle,
    o: { position?: number; check?: (chunk: Uint8Array) => void; onWritten?: (position: number) => void } = {},
  ) {
    super({ highWaterMark: MAX_QUEUED_BYTES, decodeStrings: false });
    this.position = o.position ?? 0;
    this.check = o.check;
    this.onWritten = o.onWritten;
  }

  override _writev(chunks: { chunk: Uint8Array }[], callback: (error?: Error | null) => void): void {
    this.writeOut(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  override _write(chunk: Uint8Array, _enc: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeOut([chunk], callback);
  }

  /** Resolves when no disk write is running (before the file is closed or its length read). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The handle is closed by the caller after this: a write still running must end first.
    void this.settled().then(() => callback(error));
  }

  private writeOut(bufs: Uint8Array[], callback: (error?: Error | null) => void): void {
    try {
      if (this.check) for (const b of bufs) this.check(b);
    } catch (e) {
      this.failure ??= e;
      callback(e as Error);
      return;
    }
    const at = this.position;
    const run = writeAll(this.fh, bufs, at).then(
      (n) => {
        this.position = at + n;
        this.inFlight = undefined;
        try {
          this.onWritten?.(this.position);
        } catch (e) {
          this.failure ??= e;
          callback(e as Error);
          return;
        }
        callback();
      },
      (e: unknown) => {
        this.failure ??= e;
        this.inFlight = undefined;
        callback(e as Error);
      },
    );
    this.inFlight = run;
  }
}

/**
 * `writev` at `position` until every byte is on disk; resolves with the count. A write may take
 * fewer bytes than it was given and still succeed (a file system that is nearly full writes what
 * fits, and only the next call fails with ENOSPC): ignoring the count saved a 3 MB video as its
 * first 1 MB, reported as complete.
 */
export async function writeAll(fh: fs.FileHandle, bufs: Uint8Array[], position: number): Promise<number> {
  let rest = bufs;
  let at = position;
  while (rest.length > 0) {
    const total = rest.reduce((n, b) => n + b.byteLength, 0);
    const { bytesWritten } = await fh.writev(rest, at);
    if (bytesWritten >= total) return at + total - position;
    if (bytesWritten <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write (nothing was written)'), {
        code: 'ENOSPC',
        syscall: 'write',
      });
    at += bytesWritten;
    rest = after(rest, bytesWritten);
  }
  return at - position;
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
