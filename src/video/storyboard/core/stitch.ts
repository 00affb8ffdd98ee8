/**
 * Joins the chosen takes of a board into one MP4 without re-encoding: mediabunny (a maintained
 * MP4 demuxer and muxer, pure TypeScript, no ffmpeg) copies each clip's encoded packets into one
 * output, shifted by the clips before it. That is only valid when every clip carries the same
 * codec parameters (codec, profile and level, size, SPS/PPS); when they differ the answer says
 * which clip and which parameter, and the board offers a re-encode in the webview (WebCodecs).
 * A clip that cannot be read is named with the reason, never silently dropped.
 */
import { basename } from 'node:path';
import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  FilePathSource,
  Input,
  Mp4OutputFormat,
  Output,
  type InputAudioTrack,
  type InputVideoTrack,
} from 'mediabunny';
import { describeClip, firstDifference, type ClipParameters } from './stitchParameters';

export type ClipSource = string | Uint8Array;

export interface UndecodableClip {
  index: number;
  name: string;
  reason: string;
}

export type StitchResult =
  | { ok: true; durationSeconds: number; bytes: Uint8Array; clips: Array<{ name: string; durationSeconds: number }> }
  | { ok: false; kind: 'undecodable'; clips: UndecodableClip[]; message: string }
  | {
      ok: false;
      kind: 'mismatch';
      index: number;
      name: string;
      parameter: string;
      expected: string;
      actual: string;
      message: string;
    }
  | { ok: false; kind: 'empty'; message: string };

export interface StitchOptions {
  /** How each clip is named in messages (default: a path's file name, else "clip N"). */
  names?: string[];
}

interface Opened {
  input: Input;
  video: InputVideoTrack;
  audio: InputAudioTrack | null;
  params: ClipParameters;
  start: number;
  duration: number;
}

function clipName(source: ClipSource, index: number, names?: string[]): string {
  return names?.[index] ?? (typeof source === 'string' ? basename(source) : `clip ${index + 1}`);
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Opens one clip and reads what joining needs; a string when it cannot be read. */
async function open(source: ClipSource): Promise<Opened | string> {
  const input = new Input({
    formats: ALL_FORMATS,
    source: typeof source === 'string' ? new FilePathSource(source) : new BufferSource(source),
  });
  try {
    const video = await input.getPrimaryVideoTrack();
    if (!video) {
      input.dispose();
      return 'it has no video track';
    }
    const audio = await input.getPrimaryAudioTrack();
    const params = await describeClip(video, audio);
    if (typeof params === 'string') {
      input.dispose();
      return params;
    }
    const start = await input.getFirstTimestamp();
    const duration = (await input.computeDuration()) - start;
    if (!(duration > 0)) {
      input.dispose();
      return 'it holds no frames';
    }
    return { input, video, audio, params, start, duration };
  } catch (err) {
    input.dispose();
    return `it is not a video file that can be read (${reasonOf(err)})`;
  }
}

/** Joins `inputs` in order (paths or bytes) into one MP4, or says why it cannot without re-encoding. */
export async function stitchClips(inputs: ClipSource[], options: StitchOptions = {}): Promise<StitchResult> {
  if (inputs.length === 0) return { ok: false, kind: 'empty', message: 'There are no clips to join.' };
  const opened: Array<Opened | string> = [];
  for (const source of inputs) opened.push(await open(source));
  const closeAll = () => opened.forEach((o) => typeof o !== 'string' && o.input.dispose());
  try {
    const bad: UndecodableClip[] = [];
    opened.forEach((o, index) => {
      if (typeof o === 'string') bad.push({ index, name: clipName(inputs[index]!, index, options.names), reason: o });
    });
    if (bad.length > 0) {
      const list = bad.map((b) => `${b.name}: ${b.reason}`).join('; ');
      return {
        ok: false,
        kind: 'undecodable',
        clips: bad,
        message: `The film cannot include ${bad.length === 1 ? 'this clip' : 'these clips'}, which cannot be decoded: ${list}.`,
      };
    }
    const clips = opened as Opened[];
    const first = clips[0]!;
    for (let i = 1; i < clips.length; i++) {
      const diff = firstDifference(first.params, clips[i]!.params);
      if (!diff) continue;
      const name = clipName(inputs[i]!, i, options.names);
      const firstName = clipName(inputs[0]!, 0, options.names);
      return {
        ok: false,
        kind: 'mismatch',
        index: i,
        name,
        ...diff,
        message:
          `Cannot join without re-encoding: ${name} has ${diff.parameter} ${diff.actual}, ` +
          `${firstName} has ${diff.expected}.`,
      };
    }
    return await join(clips, inputs, options);
  } finally {
    closeAll();
  }
}

async function join(clips: Opened[], inputs: ClipSource[], options: StitchOptions): Promise<StitchResult> {
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const first = clips[0]!;
  const videoSource = new EncodedVideoPacketSource(first.params.video.codec);
  output.addVideoTrack(videoSource, { rotation: first.params.video.rotation });
  const audioSource = first.params.audio ? new EncodedAudioPacketSource(first.params.audio.codec) : undefined;
  if (audioSource) output.addAudioTrack(audioSource);
  await output.start();
  let offset = 0;
  let firstVideo = true;
  let firstAudio = true;
  for (const clip of clips) {
    const shift = offset - clip.start;
    for await (const packet of new EncodedPacketSink(clip.video).packets()) {
      const moved = packet.clone({ timestamp: packet.timestamp + shift });
      await videoSource.add(moved, firstVideo ? { decoderConfig: clip.params.video.config } : undefined);
      firstVideo = false;
    }
    if (audioSource && clip.audio) {
      for await (const packet of new EncodedPacketSink(clip.audio).packets()) {
        const moved = packet.clone({ timestamp: packet.timestamp + shift });
        await audioSource.add(moved, firstAudio ? { decoderConfig: clip.params.audio!.config } : undefined);
        firstAudio = false;
      }
    }
    offset += clip.duration;
  }
  await output.finalize();
  const bytes = new Uint8Array(target.buffer!);
  return {
    ok: true,
    durationSeconds: offset,
    bytes,
    clips: clips.map((c, i) => ({ name: clipName(inputs[i]!, i, options.names), durationSeconds: c.duration })),
  };
}
