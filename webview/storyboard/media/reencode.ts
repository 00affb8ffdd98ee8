/**
 * Joins clips whose codec parameters differ by decoding and encoding them again in the webview
 * (WebCodecs through mediabunny): every frame is fitted into the first clip's size (letterboxed
 * on black) and encoded as H.264 in MP4, or the first codec this browser can encode. Costs
 * quality and time, so the board only offers it after the lossless join said why it cannot.
 */
import {
  BufferTarget,
  CanvasSink,
  CanvasSource,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  getFirstEncodableVideoCodec,
} from 'mediabunny';
import { ClipError, closeAll, openAll, reasonOf } from './clips';

export interface ReencodeOptions {
  /** Output size; default the first clip's (even numbers, as encoders want). */
  width?: number;
  height?: number;
  onProgress?: (fraction: number) => void;
}

export interface ReencodeResult {
  bytes: Uint8Array;
  durationSeconds: number;
  width: number;
  height: number;
  codec: string;
  frames: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

export async function reencodeClips(clips: ArrayBuffer[], options: ReencodeOptions = {}): Promise<ReencodeResult> {
  if (clips.length === 0) throw new Error('There are no clips to join.');
  const open = await openAll(clips);
  try {
    const width = even(options.width ?? open[0]!.width);
    const height = even(options.height ?? open[0]!.height);
    const codec = await getFirstEncodableVideoCodec(['avc', 'vp9', 'av1'], { width, height });
    if (!codec) throw new Error('This browser cannot encode video (no H.264, VP9 or AV1 encoder).');
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    const target = new BufferTarget();
    const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
    const source = new CanvasSource(canvas, { codec, quality: QUALITY_HIGH });
    output.addVideoTrack(source);
    await output.start();
    const total = open.reduce((s, c) => s + c.duration, 0);
    let offset = 0;
    let frames = 0;
    for (const clip of open) {
      const sink = new CanvasSink(clip.track, { width, height, fit: 'contain' });
      try {
        for await (const frame of sink.canvases()) {
          ctx.fillStyle = '#000';
          ctx.fillRect(0, 0, width, height);
          ctx.drawImage(frame.canvas, 0, 0);
          await source.add(offset + frame.timestamp - clip.start, frame.duration);
          frames++;
          options.onProgress?.(Math.min(1, (offset + frame.timestamp - clip.start + frame.duration) / total));
        }
      } catch (err) {
        await output.cancel();
        throw new ClipError(clip.index, `a frame cannot be decoded (${reasonOf(err)})`);
      }
      offset += clip.duration;
    }
    await output.finalize();
    return { bytes: new Uint8Array(target.buffer!), durationSeconds: offset, width, height, codec, frames };
  } finally {
    closeAll(open);
  }
}
