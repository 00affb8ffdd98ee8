// Joining the local gateway's real clips without re-encoding: the joined MP4 is read back by an
// independent demux (its own duration and frames), a clip with other parameters is refused with
// the clip and the parameter named, and clips that cannot be decoded are each named.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { stitchClips } from '../../../../../src/video/storyboard/core/stitch';

const FIX = join(__dirname, '..', '..', '..', '..', 'gateway', 'fixtures');
const clip = (name: string) => join(FIX, name);
const FRAME = 1 / 12;

async function readBack(bytes: Uint8Array) {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    const video = (await input.getPrimaryVideoTrack())!;
    let frames = 0;
    let keys = 0;
    let last = -Infinity;
    for await (const p of new EncodedPacketSink(video).packets()) {
      frames++;
      if (p.type === 'key') keys++;
      assert.ok(p.timestamp > last, `timestamps increase (${p.timestamp} after ${last})`);
      last = p.timestamp;
    }
    return {
      duration: await input.computeDuration(),
      frames,
      keys,
      width: await video.getCodedWidth(),
      height: await video.getCodedHeight(),
      codec: (await video.getDecoderConfig())!.codec,
    };
  } finally {
    input.dispose();
  }
}

void describe('stitchClips', () => {
  void it('joins 1 s + 2 s + 3 s clips by copying packets: 6 s within one frame, every frame kept', async () => {
    const r = await stitchClips([clip('clip-1s.mp4'), clip('clip-2s.mp4'), clip('clip-3s.mp4')]);
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(Math.abs(r.durationSeconds - 6) <= FRAME, `reported ${r.durationSeconds}`);
    assert.deepEqual(
      r.clips.map((c) => [c.name, c.durationSeconds]),
      [
        ['clip-1s.mp4', 1],
        ['clip-2s.mp4', 2],
        ['clip-3s.mp4', 3],
      ],
    );
    const back = await readBack(r.bytes);
    assert.ok(Math.abs(back.duration - 6) <= FRAME, `the file says ${back.duration} s`);
    assert.equal(back.frames, 12 + 24 + 36);
    assert.equal(back.keys, 1 + 2 + 3, 'one GOP a second, as encoded: nothing was re-encoded');
    assert.deepEqual([back.width, back.height], [320, 180]);
    assert.match(back.codec, /^avc1\.64/);
  });

  void it('takes bytes as well as paths, in the order given', async () => {
    const bytes = [readFileSync(clip('clip-3s.mp4')), readFileSync(clip('clip-1s.mp4'))];
    const r = await stitchClips(bytes.map((b) => new Uint8Array(b)));
    assert.ok(r.ok);
    assert.deepEqual(
      r.clips.map((c) => c.name),
      ['clip 1', 'clip 2'],
    );
    assert.ok(Math.abs((await readBack(r.bytes)).duration - 4) <= FRAME);
  });

  void it('refuses a clip with other codec parameters, naming the clip and the parameter', async () => {
    const r = await stitchClips([clip('clip-1s.mp4'), clip('clip-2s.mp4'), clip('clip-other.mp4')], {
      names: ['Shot 1', 'Shot 2', 'Shot 3'],
    });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.kind === 'mismatch');
    assert.equal(r.index, 2);
    assert.equal(r.name, 'Shot 3');
    assert.equal(r.parameter, 'resolution');
    assert.equal(r.expected, '320x180');
    assert.equal(r.actual, '256x144');
    assert.equal(r.message, 'Cannot join without re-encoding: Shot 3 has resolution 256x144, Shot 1 has 320x180.');
  });

  void it('names every clip that cannot be decoded and says the film cannot include it', async () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 31) & 0xff);
    const r = await stitchClips([clip('clip-1s.mp4'), clip('clip-truncated.mp4'), garbage, clip('missing.mp4')]);
    assert.ok(!r.ok && r.kind === 'undecodable', JSON.stringify(r));
    assert.deepEqual(
      r.clips.map((c) => [c.index, c.name]),
      [
        [1, 'clip-truncated.mp4'],
        [2, 'clip 3'],
        [3, 'missing.mp4'],
      ],
    );
    assert.match(r.message, /^The film cannot include these clips, which cannot be decoded: clip-truncated\.mp4: /);
    for (const c of r.clips) assert.ok(c.reason.length > 0);
  });

  void it('says so when there is nothing to join', async () => {
    const r = await stitchClips([]);
    assert.ok(!r.ok && r.kind === 'empty');
  });
});
