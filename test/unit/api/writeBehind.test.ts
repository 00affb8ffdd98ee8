import assert from 'node:assert/strict';
import type { promises as fs } from 'node:fs';
import { test } from 'node:test';
import { WriteBehind } from '../../../src/api/writeBehind';

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
  await w.write(data.subarray(0, 7));
  await w.write(data.subarray(7));
  await w.drain();
  assert.deepEqual(f.written, [...data]);
  assert.ok(f.calls() >= 7, `short writes were continued (${f.calls()} calls)`);
});

void test('a disk that fills up after a short write fails the download with ENOSPC instead of saving it short', async () => {
  const f = shortWriter(4, 6);
  const w = new WriteBehind(f.fh);
  await w.write(Uint8Array.from({ length: 16 }, (_, i) => i));
  await assert.rejects(w.drain(), (e: unknown) => (e as { code?: string }).code === 'ENOSPC');
});
