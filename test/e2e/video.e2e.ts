import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { UI_TIMEOUT, type Workbench } from './workbench';

const TOTAL_STEPS = 6;

/** Waits until the wizard shows step `n` (the title reads "… (n/6)"). */
async function atStep(wb: Workbench, n: number, timeoutMs = UI_TIMEOUT): Promise<void> {
  await wb.quickInput
    .locator('.quick-input-title', { hasText: `${n}/${TOTAL_STEPS}` })
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Accepts the current step (Enter) until the wizard moves past it; validation may lag a moment. */
async function next(wb: Workbench, from: number): Promise<void> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    await wb.quickInputBox.press('Enter');
    try {
      if (from === TOTAL_STEPS) await wb.quickInput.waitFor({ state: 'hidden', timeout: 3000 });
      else await atStep(wb, from + 1, 3000);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`the wizard stayed at step ${from}`, { cause: e });
    }
  }
}

/** Generate Video through the six quick inputs: vendor-image-video, `prompt`, text to video, defaults. */
export async function generateWithWizard(wb: Workbench, prompt: string): Promise<void> {
  await wb.runCommand('Gateway Studio: Generate Video');
  await atStep(wb, 1);
  await wb.quickInput.locator('.monaco-list-row', { hasText: 'vendor-image-video' }).first().click();
  await atStep(wb, 2);
  await wb.quickInputBox.fill(prompt);
  await next(wb, 2);
  // Step 3: reference images; text to video.
  await wb.quickInput.locator('.monaco-list-row', { hasText: 'None (text to video)' }).first().click();
  await atStep(wb, 4);
  await next(wb, 4); // default duration
  await next(wb, 5); // default aspect ratio
  await next(wb, 6); // default resolution
}

export const journeys: Journey[] = [
  {
    name: 'video: generate through the quick inputs, watch the status bar go queued -> percent -> saved, find the MP4 in the explorer, open it from the task list',
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      await generateWithWizard(wb, 'a paper boat drifting on a calm lake');

      // Sample the status-bar item's text until the video is saved.
      const item = wb.statusItem('gatewayStudio.videoStatus');
      const seen: string[] = [];
      const deadline = Date.now() + 120_000;
      while (!seen.some((t) => /Video saved/.test(t))) {
        if (Date.now() > deadline) throw new Error(`status bar never said "Video saved": ${JSON.stringify(seen)}`);
        const text = (await item.innerText({ timeout: 1000 }).catch(() => '')).trim();
        if (text && seen[seen.length - 1] !== text) seen.push(text);
        if (/Video failed/.test(text)) throw new Error(`the video failed: ${JSON.stringify(seen)}`);
        await page.waitForTimeout(100);
      }
      assert.ok(
        seen.some((t) => /(0%|sending)$/.test(t)),
        `no queued state in ${JSON.stringify(seen)}`,
      );
      assert.ok(
        seen.some((t) => /\b([1-9]\d?)%$/.test(t)),
        `no percentage in ${JSON.stringify(seen)}`,
      );

      // The explorer shows videos/ with the MP4 in it.
      const folder = page.locator('.explorer-folders-view .monaco-list-row[aria-label^="videos"]').first();
      await folder.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
      const mp4 = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /a-paper-boat.*\.mp4/ }).first();
      await mp4.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await wb.notification('Video saved');
      await shot('e2e-video-saved');

      // The quick-pick task list (the keyboard way; the status-bar item opens the gallery since
      // issue 12): the finished task offers its actions, and "Open the video" opens the MP4.
      await wb.runCommand('Gateway Studio: Video Task List (Quick Pick)');
      await wb.quickInput
        .locator('.quick-input-title', { hasText: 'Video Tasks' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const row = wb.quickInput.locator('.monaco-list-row', { hasText: 'a paper boat' }).first();
      await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await row.innerText(), /vendor-image-video/, 'the task row names its model');
      await row.click();
      const actions = wb.quickInput.locator('.monaco-list-row');
      await actions.filter({ hasText: 'Open the video' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const labels = (await actions.allInnerTexts()).map((t) => t.trim());
      for (const want of ['Open the video', 'Show details', 'Copy the id', 'Remove from the list']) {
        assert.ok(
          labels.some((l) => l.includes(want)),
          `the finished task's actions lack "${want}": ${JSON.stringify(labels)}`,
        );
      }
      assert.ok(
        !labels.some((l) => l.includes('Stop watching')),
        `a finished task offers Stop watching: ${JSON.stringify(labels)}`,
      );
      await actions.filter({ hasText: 'Open the video' }).first().click();
      await page
        .locator('.tabs-container .tab', { hasText: /a-paper-boat.*\.mp4/ })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-video-task-list-open');
    },
  },
];
