// A PNG reader for the journeys' pixel checks, on node's zlib: no PNG library is in
// node_modules and a test must not pull one in. It reads what the two sides of the storyboard
// check write (8-bit RGB or RGBA, not interlaced: Chromium's canvas.toDataURL and ffmpeg's rgb24)
// and refuses anything else loudly rather than guess.
import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGB, three bytes a pixel, row after row. */
  rgb: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG (bad signature)');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6))
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  if (!width || !channels) throw new Error('not a PNG (no IHDR)');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels]! : 0;
      const v = line[x]!;
      const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter ?? -1];
      if (pred === undefined) throw new Error(`bad PNG filter ${filter} on row ${y}`);
      out[y * stride + x] = (v + pred) & 0xff;
    }
  }
  if (channels === 3) return { width, height, rgb: out };
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < out.length; i += 4, j += 3) {
    rgb[j] = out[i]!;
    rgb[j + 1] = out[i + 1]!;
    rgb[j + 2] = out[i + 2]!;
  }
  return { width, height, rgb };
}

/** Mean and largest per-channel difference of two images of the same size. */
export function pixelDifference(a: Pixels, b: Pixels): { mean: number; max: number } {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${a.width}x${a.height} against ${b.width}x${b.height}`);
  let sum = 0;
  let max = 0;
  for (let i = 0; i < a.rgb.length; i++) {
    const d = Math.abs(a.rgb[i]! - b.rgb[i]!);
    sum += d;
    if (d > max) max = d;
  }
  return { mean: sum / a.rgb.length, max };
}
