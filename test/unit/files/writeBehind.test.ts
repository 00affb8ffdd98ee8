import assert from 'node:assert/strict';
import type { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { test } from 'node:test';
import { WriteBehind } from '../../../src/files/writeBehind';

/** A file handle whose writev takes at most `max` bytes per call (a nearly full disk), then `fail`s. */
function shortWriter(max: number, failAfter = Infinity) {
  const written: number[] = [];
  let calls = 0;
  const fh = {
    writev: (bufs: Uint8Array[]) => {
      calls++;
      if (written.length >= failAfter)
        return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      let n = 0;
      for (const b of bufs)
        for (const byte of b) {
          if (n === max) break;
          written.push(byte);
          n++;
        }
      return Promise.resolve({ bytesWritten: n, buffers: bufs });
    },
  } as unknown as fs.FileHandle;
  return { fh, written, calls: () => calls };
}

void test('a write that takes fewer bytes than given is continued until every byte is on disk, in order', async () => {
  const f = shortWriter(3);
  const w = new WriteBehind(f.fh);
  const data = Uint8Array.from({ length: 20 }, (_, i) => i);
  await pipeline(Readable.from([data.subarray(0, 7), data.subarray(7)]), w);
  assert.deepEqual(f.written, [...data]);
  assert.equal(w.position, 20);
  assert.ok(f.calls() >= 7, `short writes were continued (${f.calls()} calls)`);
});

void test('a disk that fills up after a short write fails the download with ENOSPC instead of saving it short', async () => {
  const f = shortWriter(4, 6);
  const w = new WriteBehind(f.fh);
  await assert.rejects(
    pipeline(Readable.from([Uint8Array.from({ length: 16 }, (_, i) => i)]), w),
    (e: unknown) => (e as { code?: string }).code === 'ENOSPC',
  );
  assert.equal((w.failure as { code?: string }).code, 'ENOSPC', 'the sink names its own failure');
});

void test('chunks that arrive during a disk write go out together in the next writev, and reading pauses past 8 MiB', async () => {
  const batches: number[] = [];
  let release: () => void = () => undefined;
  const fh = {
    writev: (bufs: Uint8Array[]) => {
      batches.push(bufs.length);
      const n = bufs.reduce((a, b) => a + b.byteLength, 0);
      return new Promise((resolve) => {
        release = () => resolve({ bytesWritten: n, buffers: bufs });
      });
    },
  } as unknown as fs.FileHandle;
  const w = new WriteBehind(fh);
  const chunk = new Uint8Array(64 * 1024);
  let accepted = 0;
  while (w.write(chunk)) accepted++;
  // The first chunk is on its way to the disk at once; the rest wait, up to the 8 MiB bound.
  assert.equal(batches.length, 1);
  assert.ok(accepted * chunk.byteLength <= 8 * 1024 * 1024 + chunk.byteLength, `${accepted} chunks accepted`);
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(batches.length, 2);
  assert.equal(batches[1], accepted, 'everything that waited went out in one writev');
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(w.position, (accepted + 1) * chunk.byteLength);
});
