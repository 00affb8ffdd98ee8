// The parameters that decide whether clips can be joined by copying packets, read from real
// clips, and the first difference named in the order a person would check.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ALL_FORMATS, FilePathSource, Input } from 'mediabunny';
import {
  describeClip,
  firstDifference,
  type ClipParameters,
} from '../../../../../src/video/storyboard/core/stitchParameters';

const FIX = join(__dirname, '..', '..', '..', '..', 'gateway', 'fixtures');

async function params(name: string): Promise<ClipParameters> {
  const input = new Input({ formats: ALL_FORMATS, source: new FilePathSource(join(FIX, name)) });
  try {
    const p = await describeClip((await input.getPrimaryVideoTrack())!, await input.getPrimaryAudioTrack());
    assert.notEqual(typeof p, 'string');
    return p as ClipParameters;
  } finally {
    input.dispose();
  }
}

void describe('stitch parameters', () => {
  void it('the gateway clips of 1, 2 and 3 s share every parameter, SPS/PPS included', async () => {
    const [a, b, c] = await Promise.all(['clip-1s.mp4', 'clip-2s.mp4', 'clip-3s.mp4'].map(params));
    assert.equal(firstDifference(a!, b!), undefined);
    assert.equal(firstDifference(a!, c!), undefined);
    assert.ok(a!.video.description.length > 20, 'an avcC was read');
    assert.equal(a!.audio, null);
  });

  void it('names the first parameter that differs', async () => {
    const a = await params('clip-1s.mp4');
    const other = await params('clip-other.mp4');
    assert.deepEqual(firstDifference(a, other), { parameter: 'resolution', expected: '320x180', actual: '256x144' });
    const sameSize = { ...other, video: { ...other.video, width: 320, height: 180 } };
    assert.equal(firstDifference(a, sameSize)?.parameter, 'codec profile and level');
    const onlySps = { ...a, video: { ...a.video, description: a.video.description.replace(/.$/, 'f') + '00' } };
    const d = firstDifference(a, onlySps);
    assert.equal(d?.parameter, 'video decoder configuration (SPS/PPS)');
    assert.notEqual(d?.expected, d?.actual);
    const rotated = { ...a, video: { ...a.video, rotation: 90 as const } };
    assert.deepEqual(firstDifference(a, rotated), { parameter: 'rotation', expected: '0°', actual: '90°' });
  });

  void it('an audio track on one clip only is a difference', async () => {
    const a = await params('clip-1s.mp4');
    const withAudio: ClipParameters = {
      ...a,
      audio: {
        codec: 'aac',
        codecString: 'mp4a.40.2',
        sampleRate: 48000,
        channels: 2,
        description: '',
        config: { codec: 'mp4a.40.2', sampleRate: 48000, numberOfChannels: 2 },
      },
    };
    assert.deepEqual(firstDifference(a, withAudio), { parameter: 'audio track', expected: 'none', actual: 'one' });
    const mono = { ...withAudio, audio: { ...withAudio.audio!, channels: 1 } };
    assert.equal(firstDifference(withAudio, mono)?.parameter, 'audio channels');
  });
});
