// The README's animated pictures: workbench screenshots taken at a journey's steps, halved (each
// output pixel the mean of a 2x2 block) and written as one looping GIF with gifenc (the library
// the storyboard's GIF export uses). Only under GWS_UPDATE_SCREENSHOT: a test run writes nothing.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { decodePng, type Pixels } from './png';

type Palette = number[][];
interface Gifenc {
  GIFEncoder(): {
    writeFrame(index: Uint8Array, w: number, h: number, o: { palette: Palette; delay: number }): void;
    finish(): void;
    bytes(): Uint8Array;
  };
  quantize(rgba: Uint8Array, maxColors: number): Palette;
  applyPalette(rgba: Uint8Array, palette: Palette): Uint8Array;
}

/** RGBA at half the size: the mean of each 2x2 block (a screenshot's text stays legible). */
function halved(p: Pixels): { width: number; height: number; rgba: Uint8Array } {
  const width = Math.floor(p.width / 2);
  const height = Math.floor(p.height / 2);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++) {
        const at = (yy: number, xx: number) => p.rgb[(yy * p.width + xx) * 3 + c]!;
        const sum = at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1);
        rgba[(y * width + x) * 4 + c] = Math.round(sum / 4);
        rgba[(y * width + x) * 4 + 3] = 255;
      }
  return { width, height, rgba };
}

export class GifRecorder {
  private readonly frames: { png: Buffer; holdMs: number }[] = [];
  readonly on = Boolean(process.env.GWS_UPDATE_SCREENSHOT);

  /** A frame of the page now, shown for `holdMs`. */
  async snap(page: Page, holdMs = 700): Promise<void> {
    if (this.on) this.frames.push({ png: await page.screenshot(), holdMs });
  }

  /** Writes the frames as a looping GIF at `file`; what it wrote. */
  save(file: string): { frames: number; bytes: number } | undefined {
    if (!this.on || this.frames.length === 0) return undefined;
    const gifenc = createRequire(__filename)('gifenc') as Gifenc;
    const gif = gifenc.GIFEncoder();
    for (const f of this.frames) {
      const { width, height, rgba } = halved(decodePng(f.png));
      const palette = gifenc.quantize(rgba, 256);
      gif.writeFrame(gifenc.applyPalette(rgba, palette), width, height, { palette, delay: f.holdMs });
    }
    gif.finish();
    const bytes = gif.bytes();
    writeFileSync(file, bytes);
    return { frames: this.frames.length, bytes: bytes.byteLength };
  }
}
