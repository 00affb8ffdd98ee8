import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const script = JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: 'notes/plan.txt' } }] }]);

export const journeys: Journey[] = [
  {
    name: 'tools: the model asks to read a file, the user allows it in the card, and the answer uses the result',
    share: 'tools',
    settings: chatSettings,
    files: { 'notes/plan.txt': 'Plan: ship the gateway studio demo on Friday.\n' },
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `read my plan #tools ${script}`);
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await card.innerText(), /read_file/);
      assert.match(await card.innerText(), /notes\/plan\.txt/);
      await shot('e2e-tool-awaiting-approval');
      await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /ship the gateway studio demo/);
      await shot('e2e-tool-result');
      // The README's first picture: a tool call allowed in its card and the answer that used its result.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-tools.png' });
    },
  },
  {
    name: 'tools: a denied call does not run and the model is told the user declined',
    share: 'tools',
    settings: chatSettings,
    files: { 'notes/plan.txt': 'secret plan\n' },
    async run({ wb, gw }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `read my plan #tools ${script}`);
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await card.locator('button', { hasText: /^\s*Deny\s*$/ }).click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const text = await answer.innerText();
      assert.ok(!text.includes('secret plan'), `the denied tool ran: ${text}`);
      assert.match(text, /declined/i);
    },
  },
  {
    name: 'tools: the model calls generate_video, the user allows it in the card, and the card follows the task to saved with a preview that plays and an Open button',
    settings: (gw) => ({
      ...chatSettings(gw),
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      const video = JSON.stringify([
        {
          calls: [
            { name: 'generate_video', arguments: { prompt: 'a kite over the dunes', model: 'vendor-image-video' } },
          ],
        },
      ]);
      await sendMessage(chat, `make a video #tools ${video}`);
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await card.innerText(), /generate_video/);
      await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
      // The card follows the task: a progress state first, then saved with the file and a preview.
      const part = card.locator('.tc-video');
      await part.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const saved = card.locator('.tc-video.video-saved');
      await saved.waitFor({ state: 'visible', timeout: 120_000 });
      assert.match(await saved.innerText(), /videos\/a-kite-over-the-dunes.*\.mp4/);
      const preview = saved.locator('video');
      // The file loads through the chat page's localResourceRoots and media-src, not just an element.
      const deadline = Date.now() + UI_TIMEOUT;
      while ((await preview.evaluate((v) => (v as unknown as { readyState: number }).readyState)) < 1) {
        if (Date.now() > deadline) throw new Error('the preview in the card never loaded the saved video');
        await page.waitForTimeout(100);
      }
      await shot('e2e-tool-video-saved');
      await saved.locator('button', { hasText: /^\s*Open\s*$/ }).click();
      await page
        .locator('.tabs-container .tab', { hasText: /a-kite-over-the-dunes.*\.mp4/ })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    },
  },
];
