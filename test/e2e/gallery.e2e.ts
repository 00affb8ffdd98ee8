import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import type { Journey } from './journey';
import { generateWithWizard } from './video.e2e';
import { UI_TIMEOUT } from './workbench';

const CREATE = 'POST /v1/videos/generations';

/** The gallery's page: the webview frame that holds `main.gallery` (the chat view may be open too). */
async function galleryFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    for (const f of page.frames()) {
      if (
        (await f
          .locator('main.gallery')
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    if (Date.now() > deadline) throw new Error('the video gallery never appeared');
    await page.waitForTimeout(200);
  }
}

/** Accepts the workbench's modal that says the request is billed. */
async function confirmBilled(page: Page): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.match(await dialog.innerText(), /billed/i, 'the confirmation says the request is billed');
  await dialog.locator('.monaco-button', { hasText: 'Generate (billed)' }).click();
  await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  page: Page,
  timeoutMs = UI_TIMEOUT,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(100);
  }
}

export const journeys: Journey[] = [
  {
    name: 'gallery: the status-bar item opens the gallery; a saved video shows its poster and plays; re-run and "use this frame" each start exactly one new task',
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      await generateWithWizard(wb, 'a kite over green hills');
      const item = wb.statusItem('gatewayStudio.videoStatus');
      await until(
        '"Video saved" in the status bar',
        async () => /Video saved/.test(await item.innerText({ timeout: 1000 }).catch(() => '')),
        page,
        120_000,
      );
      assert.equal(gw.counts()[CREATE], 1);

      // The status-bar item opens the gallery (the quick pick has its own command now).
      await item.click();
      const g = await galleryFrame(page);
      const card = g.locator('li.task[data-state="saved"]').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await card.innerText(), /a kite over green hills/);
      assert.match(await card.innerText(), /vendor-image-video/);
      // The poster is drawn from the video in the page, cached by the host, and sent back as a link.
      const video = card.locator('video');
      await until('the poster frame', async () => ((await video.getAttribute('poster')) ?? '') !== '', page);
      assert.equal(await video.getAttribute('preload'), 'none', 'with a poster the list does not decode the video');
      assert.equal(await card.locator('.unplayable').count(), 0, 'this browser plays the H.264 sample');

      // Play advances currentTime.
      await card.locator('button[data-action="play"]').click();
      let t = 0;
      await until(
        'currentTime to advance',
        async () => (t = await video.evaluate((v) => (v as unknown as { currentTime: number }).currentTime)) > 0.2,
        page,
        20_000,
      );
      assert.ok(t > 0.2);
      await video.evaluate((v) => (v as unknown as { pause(): void }).pause());
      await shot('e2e-gallery-saved');

      // Re-run: a billed confirmation, then exactly one new creation request.
      await card.locator('button[data-action="rerun"]').click();
      await confirmBilled(page);
      await until('the re-run POST', () => (gw.counts()[CREATE] ?? 0) >= 2, page);
      await page.waitForTimeout(500);
      assert.equal(gw.counts()[CREATE], 2, 'exactly one new POST for the re-run');
      const rerun = gw
        .requests()
        .filter((r) => r.route === '/v1/videos/generations')
        .at(-1)?.body as Record<string, unknown>;
      assert.equal(rerun.prompt, 'a kite over green hills');
      assert.equal(rerun.model, 'vendor-image-video');

      // Use this frame: the frame is saved as a PNG in the workspace and opens the form with it.
      const first = g
        .locator('li.task', { hasText: 'a kite over green hills' })
        .filter({ has: g.locator('video') })
        .last();
      await first.locator('button[data-action="frame"]').click();
      const form = g.locator('form.remix');
      await form.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await form.locator('textarea[name="images"]').inputValue(), /^videos\/frames\/.+\.png$/);
      await form.locator('textarea[name="prompt"]').fill('the kite lands in the grass');
      await form.locator('button[type="submit"]').click();
      await confirmBilled(page);
      await until('the frame POST', () => (gw.counts()[CREATE] ?? 0) >= 3, page);
      await page.waitForTimeout(500);
      assert.equal(gw.counts()[CREATE], 3, 'exactly one new POST for the frame');
      const fromFrame = gw
        .requests()
        .filter((r) => r.route === '/v1/videos/generations')
        .at(-1)?.body as Record<string, unknown>;
      const urls = fromFrame.image_urls as string[];
      assert.equal(urls.length, 1, 'one reference image');
      assert.match(urls[0] ?? '', /^data:image\/png;base64,iVBORw0KGgo/, 'a PNG data URL');
      assert.equal(fromFrame.prompt, 'the kite lands in the grass');
      await form.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
      await shot('e2e-gallery-frame');
      if (process.env.GWS_UPDATE_SCREENSHOT) {
        // The README's picture: the gallery alone in the sidebar (the chat view folded) with the
        // saved original, the re-run and the frame's task; the original open in the editor.
        await first.locator('button[data-action="open"]').click();
        await page
          .locator('.tabs-container .tab', { hasText: /a-kite.*\.mp4/ })
          .first()
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await page
          .locator('.pane-header', { has: page.locator('h3.title', { hasText: /^Chat$/ }) })
          .first()
          .click();
        await g.locator('li.task').nth(2).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await g.locator('.notice button.link').click();
        await g.locator('main.gallery').evaluate((m) => (m as unknown as { scrollIntoView(): void }).scrollIntoView());
        await page.waitForTimeout(800);
        await page.screenshot({ path: 'media/screenshot-gallery.png' });
      }
    },
  },
];
