/**
 * What an image's first bytes say: its format by magic number (never by a name or a content type
 * a server chose) and its pixel size, so an input that is no image, an answer that is something
 * else, or a mask of another size is refused before it is sent or kept.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** Bytes enough to know the format (WebP needs 12). */
export const MAGIC_BYTES = 12;

const MIME: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The file extension each format is saved with. */
export const IMAGE_EXTENSION: Readonly<Record<ImageFormat, string>> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  gif: 'gif',
};

export function imageMime(f: ImageFormat): string {
  return MIME[f];
}

const at = (b: Uint8Array, i: number, ...bytes: number[]) => bytes.every((v, k) => b[i + k] === v);

/** The format the first bytes name, or undefined when they are no image this extension keeps. */
export function imageFormat(head: Uint8Array): ImageFormat | undefined {
  if (at(head, 0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(head, 0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(head, 0, 0x52, 0x49, 0x46, 0x46) && at(head, 8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  if (at(head, 0, 0x47, 0x49, 0x46, 0x38)) return 'gif';
  return undefined;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 65536 + u16be(b, i + 2);

/** The start-of-frame markers of JPEG that carry the size (not DHT C4, JPG C8, DAC CC). */
function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (isSof(marker)) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}

function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  if (chunk === 'VP8L') {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  return undefined;
}

/** Width and height in pixels, read from the header; undefined when it cannot be read. */
export function imageSize(b: Uint8Array): { width: number; height: number } | undefined {
  switch (imageFormat(b)) {
    case 'png':
      return b.length >= 24 ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined;
    case 'gif':
      return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
    case 'jpeg':
      return jpegSize(b);
    case 'webp':
      return b.length >= 30 ? webpSize(b) : undefined;
    default:
      return undefined;
  }
}
