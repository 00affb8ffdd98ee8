// The file half of a video download on a real folder: the temporary file beside the target, the
// link into place that never overwrites, and nothing left behind. The HTTP half runs into it in
// test/unit/api/video/videoDownload.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { finished } from 'node:stream/promises';
import type { VideoSink } from '../../../../../src/api/video/videoDownload';
import { partFileTarget } from '../../../../../src/files/partFileNames';
import { saveTo } from '../../../../../src/video/jobs/core/saveDownload';
import { gatewayFailure, useTempDir } from '../../../../support/helpers';

const tmp = useTempDir('gs-save-download-');
const noHooks = { check: () => undefined, onWritten: () => undefined };

async function write(sink: VideoSink, position: number, ...chunks: string[]): Promise<number> {
  const w = sink.writer(position, noHooks);
  for (const c of chunks) w.write(Buffer.from(c));
  w.end();
  await finished(w);
  await w.settled();
  return w.position;
}

const parts = (dir: string) => readdirSync(dir).filter((f) => partFileTarget(f) !== undefined);

void describe('saveTo: a download into a file beside its target', () => {
  void it('writes a temporary file while the bytes come, then links the video into place and removes it', async () => {
    const dir = tmp.fresh();
    const dest = join(dir, 'clip.mp4');
    const sink = saveTo(dest)('/v1/videos/v1/content');
    await sink.open();
    const end = await write(sink, 0, 'abc', 'def');
    assert.equal(end, 6);
    assert.deepEqual(
      parts(dir).map((f) => partFileTarget(f)),
      ['clip.mp4'],
      'the bytes wait in a .part file named for the target',
    );
    assert.equal(await sink.keep(end), dest);
    await sink.dispose();
    assert.equal(readFileSync(dest, 'utf8'), 'abcdef');
    assert.deepEqual(readdirSync(dir), ['clip.mp4']);
  });

  void it('a pass that starts over writes from 0, and the kept file is cut to the bytes of the video', async () => {
    const dir = tmp.fresh();
    const dest = join(dir, 'again.mp4');
    const sink = saveTo(dest)('/x');
    await sink.open();
    await write(sink, 0, 'a longer first try');
    const end = await write(sink, 0, 'short');
    await sink.keep(end);
    await sink.dispose();
    assert.equal(readFileSync(dest, 'utf8'), 'short');
  });

  void it('a resumed pass appends where the last one ended', async () => {
    const dir = tmp.fresh();
    const dest = join(dir, 'resumed.mp4');
    const sink = saveTo(dest)('/x');
    await sink.open();
    const half = await write(sink, 0, 'first half ');
    const end = await write(sink, half, 'second half');
    await sink.keep(end);
    await sink.dispose();
    assert.equal(readFileSync(dest, 'utf8'), 'first half second half');
  });

  void it('never replaces a file the user has: EEXIST, and the temporary file goes', async () => {
    const dir = tmp.fresh();
    const dest = join(dir, 'mine.mp4');
    writeFileSync(dest, 'the user');
    const sink = saveTo(dest)('/x');
    await sink.open();
    await assert.rejects(sink.keep(await write(sink, 0, 'new')), /EEXIST/);
    await sink.dispose();
    assert.equal(readFileSync(dest, 'utf8'), 'the user');
    assert.deepEqual(readdirSync(dir), ['mine.mp4']);
  });

  void it('disposing of an unkept download removes its file; a second sink of the same target gets its own', async () => {
    const dir = tmp.fresh();
    const dest = join(dir, 'stopped.mp4');
    const a = saveTo(dest)('/x');
    const b = saveTo(dest)('/x');
    await a.open();
    await b.open();
    await write(a, 0, 'half');
    assert.equal(parts(dir).length, 2, 'two downloads of one target never share a file');
    await a.dispose();
    assert.equal(parts(dir).length, 1);
    await b.dispose();
    assert.deepEqual(readdirSync(dir), []);
    assert.ok(!existsSync(dest));
  });

  void it('an open that failed (no such folder) is reported by open, and dispose has nothing to remove', async () => {
    const sink = saveTo(join(tmp.fresh(), 'missing', 'v.mp4'))('/x');
    await assert.rejects(sink.open(), /ENOENT/);
    await sink.dispose();
  });

  void it('a temporary file removed before the link is a retryable truncated download naming it, not ENOENT', async () => {
    const dir = tmp.fresh();
    const sink = saveTo(join(dir, 'gone.mp4'))('/v1/videos/v9/content');
    await sink.open();
    const end = await write(sink, 0, 'bytes');
    for (const f of parts(dir)) unlinkSync(join(dir, f));
    const e = await gatewayFailure(sink.keep(end));
    await sink.dispose();
    assert.equal(e.kind, 'truncated');
    assert.equal(e.retryable, true);
    assert.equal(e.path, '/v1/videos/v9/content');
    assert.match(e.message, /temporary file \.gone\.mp4\.[0-9a-f]{8}\.part was removed .* after 5 bytes/);
    assert.equal((e.cause as { code?: string }).code, 'ENOENT');
    assert.deepEqual(readdirSync(dir), []);
  });
});
