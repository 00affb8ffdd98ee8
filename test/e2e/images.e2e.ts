// Issue 40's image journeys, as a user does them in code-server against the local gateway (which
// serves /v1/images/generations, the multipart /v1/images/edits and the video routes): Generate
// Image from the palette, the image in the Media gallery and in the explorer; Edit Image… from the
// explorer with a mask (one of another size refused first); a storyboard shot that starts on a
// keyframe generated through the images API, whose video request carries that image first.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { makePng } from '../gateway/images';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { UI_TIMEOUT, type Workbench } from './workbench';

const settings = (gw: HostGateway): Record<string, unknown> => ({
  'gatewayStudio.baseUrl': gw.url,
  'gatewayStudio.videoBaseUrl': gw.videoUrl,
  'gatewayStudio.video.pollIntervalSeconds': 0.3,
});

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

/** The webview frame that holds `selector` (the chat view may be open too). */
async function frameWith(page: Page, selector: string, what: string): Promise<Frame> {
  return until(
    what,
    async () => {
      for (const f of page.frames())
        if (
          (await f
            .locator(selector)
            .count()
            .catch(() => 0)) > 0
        )
          return f;
      return undefined;
    },
    page,
  );
}

/** The images saved in the workspace's images folder whose name starts with `slug`. */
function saved(workspace: string, slug: string): string[] {
  const dir = join(workspace, 'images');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${slug}-`) && f.endsWith('.png')) : [];
}

/**
 * Answers the quick input titled `title`: types `value` and presses Enter, or clicks the row that
 * has `value`, until that title goes (the next step, a file dialog included, has another title).
 */
async function answer(wb: Workbench, title: string, value: string | RegExp, how: 'type' | 'pick'): Promise<void> {
  const step = wb.quickInput.locator('.quick-input-title', { hasText: title });
  await step.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if (how === 'type') await wb.quickInputBox.fill(String(value));
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    // validateInput answers from the extension host: Enter before its answer is ignored; press again.
    if (how === 'type') {
      // The file dialog fills its box with the folder a moment after it opens: type again over that.
      if ((await wb.quickInputBox.inputValue().catch(() => '')) !== String(value))
        await wb.quickInputBox.fill(String(value)).catch(() => undefined);
      await wb.quickInputBox.press('Enter').catch(() => undefined);
    } else
      await wb.quickInput
        .locator('.monaco-list-row')
        .filter({ hasText: value })
        .first()
        .click({ timeout: 5000 })
        .catch(() => undefined);
    try {
      await step.waitFor({ state: 'hidden', timeout: 3000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`"${title}" did not take ${String(value)}`, { cause: e });
    }
  }
}

/** Runs Edit Image… from the explorer's context menu on `name` (in folder `folder`). */
async function editFromExplorer(wb: Workbench, page: Page, folder: string, name: string): Promise<void> {
  await wb.runCommand('View: Show Explorer');
  const dir = page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${folder}"]`).first();
  await dir.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if ((await dir.getAttribute('aria-expanded')) !== 'true') await dir.click();
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await row.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-menu-item', { hasText: 'Edit Image…' }).first();
  await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await item.hover();
  await item.click();
  if (await item.isVisible()) await page.keyboard.press('Enter');
}

export const journeys: Journey[] = [
  {
    name: 'images: generate an image from the command, see it in the Media gallery and in the workspace',
    settings,
    async run({ wb, gw, page, cs, shot }) {
      await wb.setApiKey(gw.keys.valid);
      await wb.runCommand('Gateway Studio: Generate Image');
      await answer(wb, 'Generate Image (1/4)', 'gpt-image-1', 'type');
      await answer(wb, 'Generate Image (2/4)', 'a red kite over the sea', 'type');
      await answer(wb, 'Generate Image (3/4)', 'Default', 'pick');
      await answer(wb, 'Generate Image (4/4)', /^\s*1(?!\d)/, 'pick'); // the row's label, then its price
      // The sidecar is written just after the image: both, before either is read.
      const sidecarOf = (f: string) => join(cs.workspace, 'images', f.replace(/\.png$/, '.json'));
      const files = await until(
        'the saved image and its sidecar',
        () => saved(cs.workspace, 'a-red-kite-over-the-sea').find((f) => existsSync(sidecarOf(f))),
        page,
      );
      const post = gw.requests().filter((r) => r.method === 'POST' && r.route === '/v1/images/generations');
      assert.equal(post.length, 1, 'one generation request');
      assert.equal((post[0]!.body as { model?: string }).model, 'gpt-image-1');
      const sidecar = JSON.parse(readFileSync(sidecarOf(files), 'utf8'));
      assert.equal(sidecar.prompt, 'a red kite over the sea');
      // It opens in an editor tab, and the explorer shows it under images/.
      // Polled: a waitFor here once sat for 60 s with the tab already open.
      const tab = page.locator(`.tabs-container .tab.active[data-resource-name=${JSON.stringify(files)}]`);
      await until('the image in the active editor tab', () => tab.isVisible(), page);
      await wb.runCommand('View: Show Explorer');
      const dir = page.locator('.explorer-folders-view .monaco-list-row[aria-label^="images"]').first();
      await dir.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      if ((await dir.getAttribute('aria-expanded')) !== 'true') await dir.click();
      await page
        .locator('.explorer-folders-view .monaco-list-row', { hasText: files })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

      // The Media gallery lists it as an image card whose picture loads from the workspace.
      await wb.runCommand('Gateway Studio: Show Video Tasks');
      // The view's frame is replaced when its resource roots change (a task saved to a new
      // folder): the card is looked for in whichever frame holds the gallery now.
      const g = await until(
        'the image card in the Media gallery',
        async () => {
          const frame = await frameWith(page, 'main.gallery', 'the Media gallery').catch(() => undefined);
          const shown = await frame
            ?.locator(`li.image-card[data-image="${files}"]`)
            .isVisible()
            .catch(() => false);
          return shown ? frame : undefined;
        },
        page,
      );
      const card = g.locator(`li.image-card[data-image="${files}"]`);
      assert.match(await card.innerText(), /a red kite over the sea/);
      assert.match(await card.innerText(), /gpt-image-1/);
      await until(
        'the picture to load',
        () => card.locator('img').evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0),
        page,
      );
      // The kind filter: videos hides it, images shows it alone.
      const kind = g.locator('select.kind');
      await kind.selectOption('videos');
      await until('the image card to go', async () => (await g.locator('li.image-card').count()) === 0, page);
      await kind.selectOption('images');
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await g.locator('li.task:not(.image-card)').count(), 0);
      await shot('e2e-images-gallery');
      // The README's Images picture: the image open beside the Media view showing it.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-images.png' });
    },
  },
  {
    name: 'images: edit it from the explorer with a mask (a mask of another size is refused first, naming both sizes)',
    settings,
    files: {
      'art/photo.png': makePng(64, 48, [200, 200, 200]),
      'art/mask.png': makePng(64, 48, [0, 0, 0]),
      'art/small-mask.png': makePng(32, 32, [0, 0, 0]),
    },
    async run({ wb, gw, page, cs, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const source = readFileSync(join(cs.workspace, 'art/photo.png'));
      const edits = () => gw.requests().filter((r) => r.method === 'POST' && r.route === '/v1/images/edits');

      // A mask of another size: refused before anything is sent.
      await editFromExplorer(wb, page, 'art', 'photo.png');
      await answer(wb, 'Edit Image (1/3)', 'make the background dark', 'type');
      await answer(wb, 'Edit Image (2/3)', 'Choose a mask…', 'pick');
      await answer(wb, 'Edit Image: the mask', join(cs.workspace, 'art/small-mask.png'), 'type');
      await wb.notification(/small-mask\.png is 32x32 but the image photo\.png is 64x48/);
      assert.equal(edits().length, 0, 'nothing was sent');
      await wb.runCommand('Notifications: Clear All Notifications');

      // The right mask: one multipart edit, the result saved beside the others, the source untouched.
      await editFromExplorer(wb, page, 'art', 'photo.png');
      await answer(wb, 'Edit Image (1/3)', 'make the background dark', 'type');
      await answer(wb, 'Edit Image (2/3)', 'Choose a mask…', 'pick');
      await answer(wb, 'Edit Image: the mask', join(cs.workspace, 'art/mask.png'), 'type');
      await answer(wb, 'Edit Image (3/3)', 'gpt-image-1', 'type');
      const file = await until('the edited image', () => saved(cs.workspace, 'make-the-background-dark')[0], page);
      assert.equal(edits().length, 1, 'one edit request');
      const body = String(edits()[0]!.body);
      assert.match(body, /name="mask"/, 'the mask went as its own part');
      assert.match(body, /name="image"; filename="photo\.png"/);
      assert.deepEqual(readFileSync(join(cs.workspace, 'art/photo.png')), source, 'the source is untouched');
      const sidecar = JSON.parse(readFileSync(join(cs.workspace, 'images', file.replace(/\.png$/, '.json')), 'utf8'));
      assert.equal(sidecar.operation, 'edit');
      assert.deepEqual(sidecar.inputs, ['art/photo.png', 'art/mask.png']);
      await page
        .locator(`.tabs-container .tab.active[data-resource-name=${JSON.stringify(file)}]`)
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-images-edited');
    },
  },
  {
    name: 'images: a storyboard shot starts from a generated keyframe, and the video request carries it as its first frame',
    settings,
    files: {
      'door.storyboard.json': `${JSON.stringify(
        {
          title: 'Door',
          defaults: { model: 'vendor-image-video', resolution: '480p', aspectRatio: '16:9' },
          shots: [
            {
              id: 'open',
              prompt: 'the door swings open',
              seconds: 1,
              firstFrame: { prompt: 'a red door', model: 'gpt-image-1' },
            },
            // A hostile board: a keyframe that points into the user's network is refused, nothing sent.
            {
              id: 'evil',
              prompt: 'x',
              seconds: 1,
              firstFrame: { prompt: 'x', image: 'https://169.254.169.254/latest/x.png' },
            },
          ],
        },
        null,
        2,
      )}\n`,
    },
    async run({ wb, gw, page, cs, shot }) {
      await wb.setApiKey(gw.keys.valid);
      await wb.openFile('door.storyboard.json');
      const f = await frameWith(page, 'main.board ol.shots', 'the board editor');
      await f.locator('li.shot[data-shot="open"] .badge.keyframe').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(
        await f.locator('li.shot[data-shot="evil"] ul.problems').innerText(),
        /points into your own machine or network \(169\.254\.169\.254\)/,
      );
      await f.locator('button[data-action="generateAll"]').click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await dialog.innerText(), /1 keyframe image\(s\) are generated first/);
      await dialog.locator('.monaco-button', { hasText: /^Generate$/ }).click();
      await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

      const posts = () =>
        gw.requests().filter((r) => r.method === 'POST' && r.route === '/v1/videos/generations') as {
          body: { prompt?: string; image_urls?: string[] };
        }[];
      const post = await until('the video request', () => posts()[0], page, 120_000);
      const images = gw.requests().filter((r) => r.method === 'POST' && r.route === '/v1/images/generations');
      assert.equal(images.length, 1, 'one keyframe generated');
      assert.equal((images[0]!.body as { prompt?: string }).prompt, 'a red door');
      const key = await until('the keyframe in the images folder', () => saved(cs.workspace, 'a-red-door')[0], page);
      const bytes = readFileSync(join(cs.workspace, 'images', key));
      assert.equal(post.body.prompt, 'the door swings open');
      assert.equal(
        post.body.image_urls?.[0],
        `data:image/png;base64,${bytes.toString('base64')}`,
        'the first frame is the keyframe',
      );
      // The board records the keyframe's file, so another take does not pay for it again.
      await until(
        'the keyframe written into the board',
        () => readFileSync(join(cs.workspace, 'door.storyboard.json'), 'utf8').includes(`"image": "images/${key}"`),
        page,
      );
      await page.waitForTimeout(1000);
      assert.equal(posts().length, 1, 'the hostile shot sent nothing');
      assert.ok(!posts().some((p) => p.body.prompt === 'x'));
      await shot('e2e-images-keyframe');
    },
  },
];
