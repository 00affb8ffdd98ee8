// Issue 24's "Done when", as a user does it: a three-shot board whose shots 2 and 3 continue from
// the previous one, opened in its custom editor, Generate all approved in the workbench's modal,
// a window reload while shot 2 is still running, then the export panel's MP4 and GIF. The local
// gateway serves clip-Ns.mp4 for a task of N seconds (test/gateway/video.ts `clipFor`), so each
// chained POST's reference image is checked against the PNG ffmpeg extracted from that clip.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import type { Frame, Page } from 'playwright-core';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { decodePng, pixelDifference, type Pixels } from './png';
import { UI_TIMEOUT } from './workbench';

const CREATE = 'POST /v1/videos/generations';
const FIXTURES = join(__dirname, '..', 'gateway', 'fixtures');
/** Shot seconds: 1 + 2 + 1. Shot 2's reference is clip-1s's last frame, shot 3's clip-2s's. */
const SECONDS = [1, 2, 1] as const;
const FRAME = 1 / 12; // the gateway clips are 12 fps
const GIF_CAP_KB = 300;

const BOARD = {
  title: 'Login demo',
  defaults: { model: 'vendor-image-video', resolution: '480p', aspectRatio: '16:9' },
  shots: [
    { id: 'open', prompt: 'the login page fades in', seconds: SECONDS[0] },
    // `#never`: the gateway keeps this task in progress until the journey completes it, so the
    // reload certainly lands while the shot is running (the gateway's knob, test/gateway/video.ts).
    { id: 'type', prompt: 'typing the password #never', seconds: SECONDS[1], continueFrom: 'previous' },
    { id: 'enter', prompt: 'the dashboard appears', seconds: SECONDS[2], continueFrom: 'previous' },
  ],
};

interface Post {
  body: { prompt?: string; image_urls?: string[] };
}

const posts = (gw: HostGateway): Post[] =>
  gw.requests().filter((r) => r.method === 'POST' && r.route === '/v1/videos/generations') as Post[];

async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  page: Page,
  ms = UI_TIMEOUT,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(150);
  }
}

/** The board editor's page: the webview frame that holds `main.board` with its shots. */
async function boardFrame(page: Page): Promise<Frame> {
  return until(
    'the board editor',
    async () => {
      for (const f of page.frames())
        if (
          (await f
            .locator('main.board ol.shots')
            .count()
            .catch(() => 0)) > 0
        )
          return f;
      return undefined;
    },
    page,
  );
}

/** A shot card's status (`data-status`: pending, waiting, running, saved, failed, blocked). */
const statusOf = (f: Frame, id: string) =>
  f
    .locator(`li.shot[data-shot="${id}"] p.status`)
    .getAttribute('data-status', { timeout: 5000 })
    .catch(() => null);

/** The PNG a data URL carries, decoded. */
function pngOfDataUrl(url: string | undefined): Pixels {
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(url ?? '');
  assert.ok(m, `a PNG data URL, got ${String(url).slice(0, 40)}`);
  return decodePng(Buffer.from(m[1]!, 'base64'));
}

const reference = (clip: string) => decodePng(readFileSync(join(FIXTURES, `${clip}.last.png`)));

/**
 * The reference image against ffmpeg's last frame of `clip`. Tolerance: mean per-channel
 * difference under 6 and none over 24 levels (of 255). Chromium's WebCodecs and ffmpeg convert
 * YUV to RGB with different chroma upsampling and rounding, which moves pixels by a few levels
 * (test/webview/storyboardMedia.test.ts measures it on the same clips); another frame of the
 * moving pattern, or another clip's, differs by tens of levels on average (the `other` check).
 */
function assertLastFrameOf(url: string | undefined, clip: string, other: string, which: string): void {
  const got = pngOfDataUrl(url);
  const d = pixelDifference(got, reference(clip));
  console.log(`  ${which}: against ${clip}.last.png mean |diff| ${d.mean.toFixed(2)}, max ${d.max}`);
  assert.ok(d.mean < 6 && d.max <= 24, `${which} is not ${clip}'s last frame: mean ${d.mean}, max ${d.max}`);
  const far = pixelDifference(got, reference(other));
  assert.ok(far.mean > 20, `${which} is as close to ${other}'s last frame (mean ${far.mean}): the check cannot tell`);
}

/** Approves the board's modal ("Generate N shot(s) of …") as a user would. */
async function approve(page: Page): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const text = await dialog.innerText();
  await dialog.locator('.monaco-button', { hasText: /^Generate$/ }).click();
  await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  return text;
}

export const journeys: Journey[] = [
  {
    name: "storyboard: a 3-shot chained board generates with exactly 3 POSTs, each chained one carrying the previous clip's last frame; a reload mid-board resumes without a new POST; the stitched MP4 and the GIF are saved beside the board",
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    files: { 'demo.storyboard.json': `${JSON.stringify(BOARD, null, 2)}\n` },
    async run({ wb, gw, page, cs, shot }) {
      const t0 = Date.now();
      const mark = (what: string) => console.log(`  ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
      await wb.setApiKey(gw.keys.valid);
      await wb.openFile('demo.storyboard.json');
      let f = await boardFrame(page);
      assert.equal(await f.locator('li.shot').count(), 3);
      assert.equal(await f.locator('li.shot .badge.chain').count(), 2, 'shots 2 and 3 say they continue');

      await f.locator('button[data-action="generateAll"]').click();
      const asked = await approve(page);
      assert.match(asked, /Generate 3 shot\(s\) of "Login demo": 3 clip\(s\), 4 s in all, with vendor-image-video/);

      // A shot's gateway id, once the board has recorded it beside itself.
      const state = join(cs.workspace, 'demo.storyboard.state.json');
      const recordedId = (id: string) =>
        until(
          `shot "${id}"'s gateway id in the state file`,
          () => {
            if (!existsSync(state)) return undefined;
            const s = JSON.parse(readFileSync(state, 'utf8')) as {
              shots: Record<string, { takes: { videoId?: string }[] }>;
            };
            return s.shots[id]?.takes[0]?.videoId;
          },
          page,
        );

      // Shot 1 runs alone (2 and 3 wait for it); the gateway finishes it at once (speed is not the
      // point here); then shot 2 starts with shot 1's last frame.
      await until('the first POST', () => posts(gw).length >= 1 || undefined, page);
      // The page may draw the statuses a moment after the POST went out (a loaded machine).
      await until(
        'shot 2 shown waiting for shot 1',
        async () => (await statusOf(f, 'type')) === 'waiting' || undefined,
        page,
      );
      gw.completeVideo(await recordedId('open'));
      await until('shot 2 to start', () => posts(gw).length >= 2 || undefined, page, 120_000);
      assert.equal(await statusOf(f, 'enter'), 'waiting', 'shot 3 waits for shot 2');
      const typeId = await recordedId('type');
      await until('shot 2 shown running', async () => (await statusOf(f, 'type')) === 'running' || undefined, page);

      mark('shot 2 running');
      // Reload while shot 2 runs: the board comes back, follows the recorded task, sends nothing new.
      await wb.reloadWindow();
      const polledBefore = gw.requests().filter((r) => r.path.includes(typeId)).length;
      f = await boardFrame(page);
      await until(
        'shot 2 shown running again',
        async () => (await statusOf(f, 'type')) === 'running' || undefined,
        page,
      );
      await until(
        'the resumed poll of shot 2',
        () => gw.requests().filter((r) => r.path.includes(typeId)).length > polledBefore || undefined,
        page,
      );
      assert.equal(gw.counts()[CREATE], 2, 'the reload sent no new creation');
      mark('reloaded, shot 2 followed again');
      gw.completeVideo(typeId);
      await until(
        'shot 3 to start',
        async () => {
          for (const id of ['type', 'enter'])
            if (['failed', 'blocked'].includes((await statusOf(f, id)) ?? ''))
              throw new Error(
                `shot ${id} stopped: ${await f.locator(`li.shot[data-shot="${id}"] p.status`).innerText()}; state file: ${readFileSync(state, 'utf8')}`,
              );
          return posts(gw).length >= 3 || undefined;
        },
        page,
      );
      gw.completeVideo(await recordedId('enter'));

      // The resumed run goes on to shot 3 by itself.
      await until(
        'all three shots saved',
        async () => {
          for (const id of ['open', 'type', 'enter']) {
            const st = await statusOf(f, id);
            if (st === 'failed' || st === 'blocked')
              throw new Error(
                `shot ${id} ${st}: ${await f.locator(`li.shot[data-shot="${id}"] p.status`).innerText()}`,
              );
            if (st !== 'saved') return undefined;
          }
          return true;
        },
        page,
        120_000,
      );
      mark('all saved');
      const sent = posts(gw);
      assert.equal(sent.length, 3, 'exactly three creation POSTs');
      assert.equal(gw.counts()[CREATE], 3);
      assert.deepEqual(
        sent.map((p) => p.body.prompt),
        BOARD.shots.map((s) => s.prompt),
      );
      assert.equal(sent[0]?.body.image_urls, undefined, 'shot 1 has no reference image');
      assert.equal(sent[1]?.body.image_urls?.length, 1);
      assert.equal(sent[2]?.body.image_urls?.length, 1);
      assertLastFrameOf(sent[1]?.body.image_urls?.[0], 'clip-1s', 'clip-2s', "shot 2's reference");
      assertLastFrameOf(sent[2]?.body.image_urls?.[0], 'clip-2s', 'clip-1s', "shot 3's reference");
      await shot('e2e-storyboard-saved');

      // Stitch: film.mp4 in the board's outputs folder, beside the board.
      const outputs = join(cs.workspace, 'demo.storyboard');
      const panel = f.locator('section.export-panel');
      const status = panel.locator('p.export-status');
      await panel.getByRole('button', { name: 'Join into one MP4' }).click();
      await until('the stitch', async () => /^Saved /.test(await status.innerText()) || undefined, page);
      const film = readFileSync(join(outputs, 'film.mp4'));
      const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(film) });
      const track = await input.getPrimaryVideoTrack();
      assert.ok(track, 'the film has a video track');
      let packets = 0;
      let first: { type: string } | undefined;
      for await (const p of new EncodedPacketSink(track).packets()) {
        first ??= p;
        packets++;
      }
      const duration = await input.computeDuration();
      const sum = SECONDS.reduce((a, b) => a + b, 0);
      console.log(`  film.mp4: ${film.length} bytes, ${packets} frames, ${duration.toFixed(3)} s (shots: ${sum} s)`);
      assert.equal(first?.type, 'key', 'the film starts on a key frame');
      assert.equal(packets, Math.round(sum / FRAME), 'every frame of every shot is in the film');
      assert.ok(Math.abs(duration - sum) <= FRAME, `film ${duration} s against ${sum} s`);

      mark('stitched');
      // GIF under the cap set here.
      const cap = panel.getByLabel('Largest size (KB)');
      await cap.fill(String(GIF_CAP_KB));
      await cap.press('Tab');
      await panel.getByRole('button', { name: 'Export GIF' }).click();
      const said = await until(
        'the GIF',
        async () => {
          const t = await status.innerText();
          if (/Does not fit|cannot/.test(t)) throw new Error(`the GIF export said: ${t}`);
          return /^Saved .*film\.gif/.test(t) ? t : undefined;
        },
        page,
        120_000,
      );
      const gif = readFileSync(join(outputs, 'film.gif'));
      console.log(`  film.gif: ${gif.length} bytes (cap ${GIF_CAP_KB} KB): ${said}`);
      assert.equal(gif.subarray(0, 6).toString('latin1'), 'GIF89a');
      assert.ok(gif.length <= GIF_CAP_KB * 1024, `the GIF is ${gif.length} bytes, over ${GIF_CAP_KB} KB`);
      assert.ok(statSync(join(outputs, 'film.gif')).size === gif.length);
      assert.equal(gw.counts()[CREATE], 3, 'exporting sent nothing to the gateway');
      mark('GIF saved');
      assert.equal(await f.locator('.unplayable').count(), 0, 'every take plays in the board editor');
      await shot('e2e-storyboard-exported');
      if (process.env.GWS_UPDATE_SCREENSHOT) {
        // The README's picture: the board editor alone (side bar closed), shot 3's saved take above
        // the export panel that says what the GIF chose.
        await wb.runCommand('View: Close Primary Side Bar');
        await panel.evaluate((p) =>
          (p as unknown as { scrollIntoView(o: { block: string }): void }).scrollIntoView({ block: 'end' }),
        );
        await page.waitForTimeout(800);
        await page.screenshot({ path: 'media/screenshot-storyboard.png' });
      }
    },
  },
];
