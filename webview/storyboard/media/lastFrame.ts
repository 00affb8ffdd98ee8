/**
 * The last frame of a clip as a PNG data URL, decoded in the webview: mediabunny reads the
 * container (MP4, WebM, ...) and decodes through the browser's WebCodecs `VideoDecoder`, so no
 * ffmpeg and no hand-written demuxer. A chained shot sends this PNG as its reference image.
 */
import { ALL_FORMATS, BufferSource, Input, VideoSampleSink, type VideoSample } from 'mediabunny';

export interface LastFrame {
  dataUrl: string;
  width: number;
  height: number;
  timestampSeconds: number;
}

/** Thrown when a clip cannot give a frame; `message` says why, in words for the card. */
export class UndecodableClipError extends Error {
  constructor(reason: string) {
    super(`The clip cannot be decoded: ${reason}`);
    this.name = 'UndecodableClipError';
  }
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Draws a frame on a canvas of its display size and encodes it as PNG. */
async function toPng(sample: VideoSample): Promise<LastFrame> {
  const width = sample.displayWidth;
  const height = sample.displayHeight;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new UndecodableClipError('the page has no 2D canvas');
  sample.draw(ctx, 0, 0, width, height);
  return { dataUrl: canvas.toDataURL('image/png'), width, height, timestampSeconds: sample.timestamp };
}

/**
 * The last decodable frame (in presentation order). Tries the last frame directly; when that
 * decode fails (a damaged tail), walks the clip from the start and keeps the last frame that
 * decoded. Throws {@link UndecodableClipError} when no frame decodes at all.
 */
export async function lastFramePng(bytes: ArrayBuffer): Promise<LastFrame> {
  let input: Input;
  try {
    input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  } catch (err) {
    throw new UndecodableClipError(reasonOf(err));
  }
  try {
    let track;
    try {
      track = await input.getPrimaryVideoTrack();
    } catch (err) {
      throw new UndecodableClipError(`not a video file this page can read (${reasonOf(err)})`);
    }
    if (!track) throw new UndecodableClipError('it has no video track');
    if (!(await track.canDecode())) {
      const codec = (await track.getCodecParameterString()) ?? track.codec ?? 'unknown';
      throw new UndecodableClipError(`this browser cannot decode its codec (${codec})`);
    }
    const sink = new VideoSampleSink(track);
    let firstError: unknown;
    try {
      const last = await sink.getSample(Infinity);
      if (last) {
        try {
          return await toPng(last);
        } finally {
          last.close();
        }
      }
    } catch (err) {
      if (err instanceof UndecodableClipError) throw err;
      firstError = err;
    }
    // The direct route failed: keep the last frame that decodes, walking forward.
    let kept: VideoSample | undefined;
    try {
      for await (const sample of sink.samples()) {
        kept?.close();
        kept = sample;
      }
    } catch (err) {
      firstError ??= err;
    }
    if (!kept) {
      throw new UndecodableClipError(firstError === undefined ? 'it holds no frames' : reasonOf(firstError));
    }
    try {
      return await toPng(kept);
    } finally {
      kept.close();
    }
  } finally {
    input.dispose();
  }
}
