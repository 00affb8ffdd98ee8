import type { promises as fs } from 'node:fs';
import { Writable } from 'node:stream';

/** How much of a download may wait in memory for the disk before reading pauses. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/**
 * The file end of a download's pipe: writes a chunk at once when the disk is free (so a stalled
 * download's bytes are on disk, as its `.part` shows), and the chunks that arrive meanwhile go out
 * together in the next `writev`: one promise per disk write, none per network chunk. A chunk is
 * acknowledged at once while fewer than {@link MAX_QUEUED_BYTES} wait; past that its callback waits
 * for the disk write under way, and the pipe pauses the socket. Only bytes waiting count: a
 * Writable's own highWaterMark also counts the batch being written, which left the socket idle for
 * every 8 MiB disk write (stop and go, measured at 30 MB/s against the old 79). Writes go at
 * explicit positions from `position` (a resumed download appends). The file handle stays the caller's.
 */
export class WriteBehind extends Writable {
  /** The end of what is on disk; after `settled()`, how far the file is written. */
  position: number;
  /** The first error this sink failed with (a full disk, or what `check` threw). */
  failure: unknown;
  private queue: Uint8Array[] = [];
  private queued = 0;
  /** Where the next batch goes. */
  private writeAt: number;
  private inFlight: Promise<void> | undefined;
  /** A write's callback held back until the disk catches up. */
  private held: ((error?: Error | null) => void) | undefined;
  private finishing: ((error?: Error | null) => void) | undefined;
  /** Sees every chunk before it is written; what it throws fails the sink (not a video). */
  private readonly check: ((chunk: Uint8Array) => void) | undefined;
  /** Told the new end of the written bytes after each disk write (progress). */
  private readonly onWritten: ((position: number) => void) | undefined;

  constructor(
    private readonly fh: fs.FileHandle,
    o: { position?: number; check?: (chunk: Uint8Array) => void; onWritten?: (position: number) => void } = {},
  ) {
    super({ highWaterMark: 64 * 1024, decodeStrings: false });
    this.position = o.position ?? 0;
    this.writeAt = this.position;
    this.check = o.check;
    this.onWritten = o.onWritten;
  }

  override _write(chunk: Uint8Array, _enc: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure !== undefined) return callback(this.failure as Error);
    try {
      this.check?.(chunk);
    } catch (e) {
      this.failure ??= e;
      return callback(e as Error);
    }
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    this.pump();
    if (this.queued > MAX_QUEUED_BYTES && this.inFlight) this.held = callback;
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.finishing = callback;
    this.pump();
    this.maybeFinish();
  }

  /** Resolves when no disk write is running (before the file is closed or its length read). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The handle is closed by the caller after this: a write still running must end first.
    this.queue = [];
    void this.settled().then(() => callback(error));
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0 || this.failure !== undefined) return;
    const bufs = this.queue;
    const at = this.writeAt;
    this.writeAt += this.queued;
    this.queue = [];
    this.queued = 0;
    this.inFlight = writeAll(this.fh, bufs, at).then(
      (n) => {
        this.position = at + n;
        this.inFlight = undefined;
        try {
          this.onWritten?.(this.position);
        } catch (e) {
          this.failure ??= e;
        }
        this.pump();
        this.release();
      },
      (e: unknown) => {
        this.failure ??= e;
        this.inFlight = undefined;
        this.release();
      },
    );
  }

  private release(): void {
    const held = this.held;
    this.held = undefined;
    held?.(this.failure === undefined ? null : (this.failure as Error));
    this.maybeFinish();
  }

  private maybeFinish(): void {
    if (!this.finishing || this.inFlight || (this.queue.length > 0 && this.failure === undefined)) return;
    const done = this.finishing;
    this.finishing = undefined;
    done(this.failure === undefined ? null : (this.failure as Error));
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
