/**
 * The codec parameters two clips must share to be joined by copying packets: the codec and its
 * parameter string (profile and level), the coded size, the rotation and the decoder
 * configuration bytes (H.264's avcC: SPS and PPS), and the same for audio.
 */
import type { AudioCodec, InputAudioTrack, InputVideoTrack, Rotation, VideoCodec } from 'mediabunny';

export interface ClipParameters {
  video: {
    codec: VideoCodec;
    codecString: string;
    width: number;
    height: number;
    rotation: Rotation;
    description: string;
    config: VideoDecoderConfigLike;
  };
  audio: {
    codec: AudioCodec;
    codecString: string;
    sampleRate: number;
    channels: number;
    description: string;
    config: AudioDecoderConfigLike;
  } | null;
}

/** WebCodecs' decoder configs, as mediabunny hands them over (node has no DOM types). */
export type VideoDecoderConfigLike = Awaited<ReturnType<InputVideoTrack['getDecoderConfig']>> & object;
export type AudioDecoderConfigLike = Awaited<ReturnType<InputAudioTrack['getDecoderConfig']>> & object;

function hex(d: unknown): string {
  if (d === undefined || d === null) return '';
  const bytes = ArrayBuffer.isView(d)
    ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
    : new Uint8Array(d as ArrayBuffer);
  return Buffer.from(bytes).toString('hex');
}

/** What a clip's tracks say about themselves, or why they cannot be copied. */
export async function describeClip(
  video: InputVideoTrack,
  audio: InputAudioTrack | null,
): Promise<ClipParameters | string> {
  const vCodec = video.codec;
  const vConfig = await video.getDecoderConfig();
  if (!vCodec || !vConfig) return 'its video codec is unknown';
  let audioParams: ClipParameters['audio'] = null;
  if (audio) {
    const aCodec = audio.codec;
    const aConfig = await audio.getDecoderConfig();
    if (!aCodec || !aConfig) return 'its audio codec is unknown';
    audioParams = {
      codec: aCodec,
      codecString: aConfig.codec,
      sampleRate: aConfig.sampleRate,
      channels: aConfig.numberOfChannels,
      description: hex(aConfig.description),
      config: aConfig,
    };
  }
  return {
    video: {
      codec: vCodec,
      codecString: vConfig.codec,
      width: await video.getCodedWidth(),
      height: await video.getCodedHeight(),
      rotation: await video.getRotation(),
      description: hex(vConfig.description),
      config: vConfig,
    },
    audio: audioParams,
  };
}

export interface Difference {
  parameter: string;
  expected: string;
  actual: string;
}

/** The first parameter in which `b` differs from `a`, in the order a person would check them. */
export function firstDifference(a: ClipParameters, b: ClipParameters): Difference | undefined {
  const checks: Array<[string, string, string]> = [
    ['video codec', a.video.codec, b.video.codec],
    ['resolution', `${a.video.width}x${a.video.height}`, `${b.video.width}x${b.video.height}`],
    ['codec profile and level', a.video.codecString, b.video.codecString],
    ['rotation', `${a.video.rotation}°`, `${b.video.rotation}°`],
    ['video decoder configuration (SPS/PPS)', short(a.video.description), short(b.video.description)],
    ['audio track', a.audio ? 'one' : 'none', b.audio ? 'one' : 'none'],
  ];
  if (a.audio && b.audio) {
    checks.push(
      ['audio codec', a.audio.codecString, b.audio.codecString],
      ['audio sample rate', `${a.audio.sampleRate} Hz`, `${b.audio.sampleRate} Hz`],
      ['audio channels', String(a.audio.channels), String(b.audio.channels)],
      ['audio decoder configuration', short(a.audio.description), short(b.audio.description)],
    );
  }
  for (const [parameter, expected, actual] of checks) {
    if (expected !== actual) return { parameter, expected, actual };
  }
  return undefined;
}

function short(hexText: string): string {
  if (hexText === '') return '(none)';
  return hexText.length > 24 ? `${hexText.slice(0, 24)}… (${hexText.length / 2} bytes)` : hexText;
}
