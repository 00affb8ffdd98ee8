import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { stitchClips } from '../../src/video/storyboard/core/stitch';
import { axeViolations, describe as describeAxe } from './axe';
import { FIXTURES, launchMedia, openMedia, type MediaPage } from './mediaHarness';
import { useBrowser } from './harness';

/*
 * The storyboard's media work in headless Chromium (Debian's, which decodes and encodes H.264
 * with WebCodecs in a secure context): the last frame of each gateway clip against the PNG
 * ffmpeg extracted independently (make-clips.sh), a clip that cannot be decoded, the re-encode
 * of clips whose parameters differ, and the GIF under its size cap saying what it chose.
 */

interface Media {
  lastFramePng(b: ArrayBuffer): Promise<{ dataUrl: string; width: number; height: number; timestampSeconds: number }>;
  reencodeClips(
    b: ArrayBuffer[],
    o?: { width?: number; height?: number },
  ): Promise<{
    bytes: Uint8Array;
    durationSeconds: number;
    width: number;
    height: number;
    codec: string;
    frames: number;
  }>;
  exportGif(b: ArrayBuffer[], o?: Record<string, number>): Promise<GifLike>;
  describeGif(r: unknown): string;
}
interface GifLike {
  bytes: Uint8Array;
  width: number;
  height: number;
  fps: number;
  frames: number;
  fits: boolean;
  attempts: unknown[];
}
/** The few DOM members the page-side code uses (this project's node type-check has no DOM lib). */
interface Img {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
}
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    drawImage(i: Img, x: number, y: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  } | null;
}
type W = { __media: Media; Image: new () => Img; document: { createElement(tag: 'canvas'): Canvas } };

let m: MediaPage;
// The shared page is opened with the browser, so it exists before any test.
const browser = useBrowser(async () => {
  const b = await launchMedia();
  m = await openMedia(b);
  return b;
});
after(async () => {
  assert.deepEqual(m.foreignRequests, [], 'nothing left the page');
});

/** Per-pixel difference between the page's PNG and the independently extracted one. */
async function lastFrameAgainstReference(clip: string, reference = clip, base64 = '') {
  return m.page.evaluate(
    async ([name, ref, b64]) => {
      const media = (globalThis as unknown as W).__media;
      const bytes = b64
        ? Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer
        : await (await fetch(`/fixtures/${name}.mp4`)).arrayBuffer();
      const got = await media.lastFramePng(bytes);
      const pixels = async (src: string) => {
        const g = globalThis as unknown as W;
        const img = new g.Image();
        img.src = src;
        await img.decode();
        const c = g.document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return { w: c.width, h: c.height, d: ctx.getImageData(0, 0, c.width, c.height).data };
      };
      const a = await pixels(got.dataUrl);
      const b = await pixels(`/fixtures/${ref}.last.png`);
      let max = 0;
      let sum = 0;
      let over = 0;
      for (let i = 0; i < a.d.length; i += 4) {
        for (let k = 0; k < 3; k++) {
          const d = Math.abs(a.d[i + k]! - b.d[i + k]!);
          max = Math.max(max, d);
          sum += d;
          if (d > 12) over++;
        }
      }
      return {
        png: got.dataUrl.startsWith('data:image/png;base64,'),
        size: [a.w, a.h, b.w, b.h, got.width, got.height],
        t: got.timestampSeconds,
        mean: sum / ((a.d.length / 4) * 3),
        max,
        over,
      };
    },
    [clip, reference, base64] as const,
  );
}

for (const [clip, seconds] of [
  ['clip-1s', 1],
  ['clip-2s', 2],
  ['clip-3s', 3],
] as const) {
  void test(`lastFramePng of ${clip} is ffmpeg's last frame within a small per-pixel tolerance`, async () => {
    const r = await lastFrameAgainstReference(clip);
    console.log(`${clip}: mean |diff| ${r.mean.toFixed(2)}, max ${r.max}, channels over 12: ${r.over}`);
    assert.ok(r.png);
    assert.deepEqual(r.size, [320, 180, 320, 180, 320, 180]);
    assert.ok(Math.abs(r.t - (seconds - 1 / 12)) < 1e-6, `the last frame's time ${r.t}`);
    // Chromium's and ffmpeg's YUV->RGB differ by a few levels (chroma upsampling, rounding);
    // a wrong frame differs by far more where the pattern moves (see the next test).
    assert.ok(r.mean < 6, `mean difference ${r.mean}`);
    assert.ok(r.max <= 24, `largest difference ${r.max}`);
  });
}

void test('the comparison can fail: a neighbouring frame or another clip is far outside the tolerance', async () => {
  const other = await lastFrameAgainstReference('clip-2s', 'clip-3s');
  assert.ok(other.max > 24 && other.mean > 6, JSON.stringify(other));
  // clip-1s is clip-3s's first second under another hue: same pattern, other colours and time.
  const early = await lastFrameAgainstReference('clip-1s', 'clip-3s');
  assert.ok(early.max > 24, JSON.stringify(early));
});

void test("the host's lossless join plays to its end: its last frame is clip-3s's", async () => {
  const joined = await stitchClips(['clip-1s.mp4', 'clip-2s.mp4', 'clip-3s.mp4'].map((n) => join(FIXTURES, n)));
  assert.ok(joined.ok);
  const r = await lastFrameAgainstReference('joined', 'clip-3s', Buffer.from(joined.bytes).toString('base64'));
  assert.ok(Math.abs(r.t - (6 - 1 / 12)) < 1e-6, `the last frame's time ${r.t}`);
  assert.ok(r.mean < 6 && r.max <= 24, JSON.stringify(r));
});

void test('a clip that cannot be decoded throws an error that says so', async () => {
  const errors = await m.page.evaluate(async () => {
    const media = (globalThis as unknown as W).__media;
    const out: string[] = [];
    const inputs = [
      await (await fetch('/fixtures/clip-truncated.mp4')).arrayBuffer(),
      new Uint8Array(2048).map((_, i) => (i * 37) & 0xff).buffer,
    ];
    for (const b of inputs) {
      try {
        await media.lastFramePng(b);
        out.push('no error');
      } catch (e) {
        out.push((e as Error).message);
      }
    }
    return out;
  });
  for (const e of errors) assert.match(e, /^The clip cannot be decoded: /);
});

void test('re-encode joins clips whose parameters differ into one MP4 that decodes to the end', async () => {
  const r = await m.page.evaluate(async () => {
    const media = (globalThis as unknown as W).__media;
    const get = async (n: string) => (await fetch(`/fixtures/${n}`)).arrayBuffer();
    const out = await media.reencodeClips([await get('clip-1s.mp4'), await get('clip-other.mp4')]);
    const last = await media.lastFramePng(out.bytes.slice().buffer);
    let badClip = '';
    try {
      await media.reencodeClips([await get('clip-1s.mp4'), await get('clip-truncated.mp4')]);
    } catch (e) {
      badClip = (e as Error).message;
    }
    return { ...out, bytes: out.bytes.length, last: [last.width, last.height, last.timestampSeconds], badClip };
  });
  console.log(
    `re-encode: ${r.codec} ${r.width}x${r.height}, ${r.frames} frames, ${r.durationSeconds} s, ${r.bytes} bytes`,
  );
  assert.deepEqual([r.width, r.height], [320, 180]);
  assert.equal(r.frames, 12 + 30);
  assert.ok(Math.abs(r.durationSeconds - 3) < 1 / 12);
  assert.equal(r.last[0], 320);
  assert.ok(Math.abs(r.last[2]! - (3 - 1 / 15)) < 1 / 12, `last frame at ${r.last[2]}`);
  assert.match(r.badClip, /^The clip cannot be decoded: clip 2: /);
});

void test('the GIF fits under the cap, plays forever by default, and says what it chose', async () => {
  const r = await m.page.evaluate(async () => {
    const media = (globalThis as unknown as W).__media;
    const get = async (n: string) => (await fetch(`/fixtures/${n}`)).arrayBuffer();
    const clips = [await get('clip-1s.mp4'), await get('clip-2s.mp4'), await get('clip-3s.mp4')];
    const roomy = await media.exportGif(clips, { maxWidth: 320, maxFps: 12, maxBytes: 5_000_000 });
    const tight = await media.exportGif(clips, { maxWidth: 320, maxFps: 12, maxBytes: 400_000, plays: 2 });
    const sum = (g: GifLike) => ({
      ...g,
      bytes: g.bytes.length,
      head: String.fromCharCode(...g.bytes.slice(0, 6)),
      loop: Array.from(g.bytes.slice(0, 2000)).join(','),
      text: media.describeGif(g),
    });
    return { roomy: sum(roomy), tight: sum(tight) };
  });
  for (const g of [r.roomy, r.tight]) console.log(`GIF: ${g.text}`);
  assert.equal(r.roomy.head, 'GIF89a');
  assert.equal(r.roomy.fits, true);
  assert.deepEqual([r.roomy.width, r.roomy.fps, r.roomy.frames], [320, 12, 72]);
  assert.equal((r.roomy.attempts as unknown[]).length, 1);
  assert.equal(r.tight.fits, true);
  assert.ok(r.tight.bytes <= 400_000 && r.tight.bytes > 0);
  assert.ok((r.tight.attempts as unknown[]).length > 1, 'the first try was over the cap');
  assert.ok((r.tight.width as number) < 320 || (r.tight.fps as number) < 12);
  assert.match(r.tight.text, /chosen to fit under 391 KB \(320 px at 12 fps was \d+ KB\)/);
  // NETSCAPE2.0 loop extension: its count is 0 (forever) by default, 1 (two plays) when asked.
  const loopCount = (csv: unknown) => {
    const b = String(csv).split(',').map(Number);
    const at = b.findIndex((_, i) => String.fromCharCode(...b.slice(i, i + 11)) === 'NETSCAPE2.0');
    return b[at + 13]! | (b[at + 14]! << 8);
  };
  assert.equal(loopCount(r.roomy.loop), 0);
  assert.equal(loopCount(r.tight.loop), 1);
});

void test('the export panel: a mismatch marks the take and offers the re-encode; the GIF is saved with what it chose', async () => {
  const page = (await openMedia(browser())).page;
  await page.evaluate(() => {
    const g = globalThis as unknown as { __stitchAnswer: unknown; __mountPanel(t: unknown): void };
    g.__stitchAnswer = {
      ok: false,
      kind: 'mismatch',
      index: 1,
      parameter: 'resolution',
      message: 'Cannot join without re-encoding: Shot 2 has resolution 256x144, Shot 1 has 320x180.',
    };
    g.__mountPanel([
      { name: 'Shot 1', src: '/fixtures/clip-1s.mp4' },
      { name: 'Shot 2', src: '/fixtures/clip-other.mp4' },
    ]);
  });
  await page.getByRole('button', { name: 'Join into one MP4' }).click();
  await page.getByRole('button', { name: 'Re-encode here and join' }).waitFor();
  assert.match(await page.getByRole('status').innerText(), /Shot 2 has resolution 256x144/);
  assert.equal(await page.locator('li[aria-invalid="true"]').innerText(), 'Shot 2 (cannot be included)');
  const axe = await axeViolations(page);
  assert.deepEqual(axe, [], describeAxe(axe));
  await page.getByRole('button', { name: 'Re-encode here and join' }).click();
  await page
    .getByText(/^Saved demo\.storyboard\/film-reencoded\.mp4 \(3\.00 s, re-encoded as avc 320x180\)\.$/)
    .waitFor();
  await page.getByLabel('Largest size (KB)').fill('300');
  await page.getByLabel('Largest size (KB)').dispatchEvent('change');
  await page.getByRole('button', { name: 'Export GIF' }).click();
  await page.getByText(/^Saved demo\.storyboard\/film\.gif: /).waitFor({ timeout: 60_000 });
  const status = await page.getByRole('status').innerText();
  console.log(`panel: ${status}`);
  assert.match(status, /chosen to fit under 300 KB/);
  const saved = await page.evaluate(
    () => (globalThis as unknown as { __saved: Array<{ kind: string; size: number; head: number[] }> }).__saved,
  );
  assert.deepEqual(
    saved.map((s) => s.kind),
    ['reencoded', 'gif'],
  );
  assert.equal(String.fromCharCode(...saved[0]!.head.slice(4, 8)), 'ftyp');
  assert.equal(String.fromCharCode(...saved[1]!.head.slice(0, 6)), 'GIF89a');
  assert.ok(saved[1]!.size <= 300 * 1024);
  await page.context().close();
});
