/**
 * A README-sized GIF of the joined clips: frames decoded in the webview (mediabunny over
 * WebCodecs), colours quantised and written by gifenc (a small maintained GIF encoder; no
 * hand-written LZW). The frame rate and width are chosen so the file fits under the cap: each
 * try that is too large shrinks both by the measured overshoot, never below the floors, and the
 * result says what was chosen and what was tried.
 */
import { GIFEncoder, applyPalette, quantize } from 'gifenc';
import { CanvasSink } from 'mediabunny';
import { ClipError, closeAll, openAll, reasonOf, type OpenClip } from './clips';

export interface GifOptions {
  /** Widest the GIF may be (px); default 480. Never wider than the first clip. */
  maxWidth?: number;
  /** Highest frame rate; default 12. */
  maxFps?: number;
  /** Size cap in bytes; default 2 MB. */
  maxBytes?: number;
  /** Times the animation plays: 0 = forever (default), 1 = once, n = n times. */
  plays?: number;
  /** Floors the choice never goes below; defaults 160 px and 4 fps. */
  minWidth?: number;
  minFps?: number;
  onProgress?: (message: string) => void;
}

export interface GifAttempt {
  width: number;
  height: number;
  fps: number;
  bytes: number;
}

export interface GifResult {
  bytes: Uint8Array;
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationSeconds: number;
  maxBytes: number;
  /** False when even the floors give a file over the cap (the bytes are the smallest tried). */
  fits: boolean;
  attempts: GifAttempt[];
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const MAX_TRIES = 6;

interface Grid {
  fps: number;
  width: number;
  height: number;
  frames: ImageData[];
}

/** Decodes every clip once, at the highest rate and width, into RGBA frames on a time grid. */
async function decodeGrid(open: OpenClip[], width: number, height: number, fps: number): Promise<Grid> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  const frames: ImageData[] = [];
  for (const clip of open) {
    const count = Math.max(1, Math.round(clip.duration * fps));
    const times = Array.from({ length: count }, (_, j) => clip.start + j / fps);
    const sink = new CanvasSink(clip.track, { width, height, fit: 'contain' });
    try {
      for await (const frame of sink.canvasesAtTimestamps(times)) {
        ctx.fillStyle = '#000';
        ctx.fillRect(0, 0, width, height);
        if (frame) ctx.drawImage(frame.canvas, 0, 0);
        frames.push(ctx.getImageData(0, 0, width, height));
      }
    } catch (err) {
      throw new ClipError(clip.index, `a frame cannot be decoded (${reasonOf(err)})`);
    }
  }
  return { fps, width, height, frames };
}

/** One GIF from the grid at `width` and `fps` (frames picked by time, scaled on a canvas). */
function encode(grid: Grid, width: number, fps: number, plays: number): { bytes: Uint8Array; frames: number } {
  const height = even((width * grid.height) / grid.width);
  const src = document.createElement('canvas');
  src.width = grid.width;
  src.height = grid.height;
  const sctx = src.getContext('2d', { willReadFrequently: true })!;
  const dst = document.createElement('canvas');
  dst.width = width;
  dst.height = height;
  const dctx = dst.getContext('2d', { willReadFrequently: true })!;
  const gif = GIFEncoder();
  const duration = grid.frames.length / grid.fps;
  const count = Math.max(1, Math.round(duration * fps));
  const repeat = plays === 0 ? 0 : plays === 1 ? -1 : plays - 1;
  const delay = Math.round(1000 / fps);
  for (let j = 0; j < count; j++) {
    const at = Math.min(grid.frames.length - 1, Math.floor((j / fps) * grid.fps + 1e-6));
    let rgba = grid.frames[at]!.data;
    if (width !== grid.width) {
      sctx.putImageData(grid.frames[at]!, 0, 0);
      dctx.drawImage(src, 0, 0, width, height);
      rgba = dctx.getImageData(0, 0, width, height).data;
    }
    const palette = quantize(rgba, 256);
    gif.writeFrame(applyPalette(rgba, palette), width, height, { palette, delay, repeat });
  }
  gif.finish();
  return { bytes: gif.bytes(), frames: count };
}

export async function exportGif(clips: ArrayBuffer[], options: GifOptions = {}): Promise<GifResult> {
  if (clips.length === 0) throw new Error('There are no clips to export.');
  const maxBytes = options.maxBytes ?? 2_000_000;
  const plays = Math.max(0, Math.floor(options.plays ?? 0));
  const minFps = Math.max(1, options.minFps ?? 4);
  const open = await openAll(clips);
  try {
    const first = open[0]!;
    const startWidth = even(Math.min(options.maxWidth ?? 480, first.width));
    const minWidth = Math.min(startWidth, even(options.minWidth ?? 160));
    const startFps = Math.max(minFps, Math.min(options.maxFps ?? 12, 50));
    const startHeight = even((startWidth * first.height) / first.width);
    options.onProgress?.('decoding');
    const grid = await decodeGrid(open, startWidth, startHeight, startFps);
    const attempts: GifAttempt[] = [];
    let width = startWidth;
    let fps = startFps;
    let best: { bytes: Uint8Array; frames: number; width: number; fps: number } | undefined;
    for (let i = 0; i < MAX_TRIES; i++) {
      options.onProgress?.(`encoding ${width} px at ${fps} fps`);
      const out = encode(grid, width, fps, plays);
      attempts.push({ width, height: even((width * startHeight) / startWidth), fps, bytes: out.bytes.length });
      if (!best || out.bytes.length < best.bytes.length) best = { ...out, width, fps };
      if (out.bytes.length <= maxBytes) {
        best = { ...out, width, fps };
        break;
      }
      if (width <= minWidth && fps <= minFps) break;
      // Bytes grow with pixels x frames: take half the overshoot from the rate, the rest from
      // the area, aiming 10% under the cap.
      const k = (maxBytes / out.bytes.length) * 0.9;
      const nextFps = Math.max(minFps, Math.min(fps, Math.floor(fps * Math.sqrt(k))));
      const left = k / (nextFps / fps);
      const nextWidth = Math.max(minWidth, Math.min(width, even(width * Math.sqrt(Math.min(1, left)))));
      if (nextFps === fps && nextWidth === width) break;
      fps = nextFps;
      width = nextWidth;
    }
    const chosen = best!;
    return {
      bytes: chosen.bytes,
      width: chosen.width,
      height: even((chosen.width * startHeight) / startWidth),
      fps: chosen.fps,
      frames: chosen.frames,
      durationSeconds: grid.frames.length / grid.fps,
      maxBytes,
      fits: chosen.bytes.length <= maxBytes,
      attempts,
    };
  } finally {
    closeAll(open);
  }
}

/** What was chosen, in words for the panel (English; the panel translates its own frame). */
export function describeGif(r: GifResult): string {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const chosen = `${r.width}x${r.height} at ${r.fps} fps, ${r.frames} frames, ${kb(r.bytes.length)}`;
  if (!r.fits) return `Does not fit under ${kb(r.maxBytes)} even at ${chosen}.`;
  if (r.attempts.length === 1) return `${chosen} (under ${kb(r.maxBytes)} as asked).`;
  const firstTry = r.attempts[0]!;
  return `${chosen}, chosen to fit under ${kb(r.maxBytes)} (${firstTry.width} px at ${firstTry.fps} fps was ${kb(firstTry.bytes)}).`;
}
