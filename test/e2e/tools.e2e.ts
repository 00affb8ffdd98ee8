import * as assert from 'node:assert/strict';
import { GifRecorder } from './gifRecorder';
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
      // The README's animated picture: the question, the card asking, allowed, the answer.
      const gif = new GifRecorder();
      await gif.snap(page, 600);
      await sendMessage(chat, `read my plan #tools ${script}`);
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await card.innerText(), /read_file/);
      assert.match(await card.innerText(), /notes\/plan\.txt/);
      await shot('e2e-tool-awaiting-approval');
      await gif.snap(page, 1800);
      const allow = card.locator('button', { hasText: /^\s*Allow\s*$/ });
      if (gif.on) await allow.hover();
      await gif.snap(page, 700);
      await allow.click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /ship the gateway studio demo/);
      await shot('e2e-tool-result');
      await gif.snap(page, 3500);
      gif.save('media/chat-tool-round-trip.gif');
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
  {
    name: "tools: the chat's generate_image tool answers inline after the approval card with its price",
    settings: chatSettings,
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      // A first answer has the account read the balance and then the gateway's prices.
      await sendMessage(chat, 'hello');
      await chat.locator('.msg.assistant .md').last().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const image = JSON.stringify([
        {
          calls: [{ name: 'generate_image', arguments: { prompt: 'a paper lantern at night', model: 'gpt-image-1' } }],
        },
      ]);
      const cards = chat.locator('section.toolcard');
      let card = cards.first();
      // The price comes from prices read in the background: a card made before they arrived says
      // unknown, and is denied (nothing sent) before the call is made again.
      for (let i = 0; i < 5; i++) {
        const before = await cards.count();
        await sendMessage(chat, `draw it #tools ${image}`);
        card = cards.nth(before);
        await card.locator('button', { hasText: /^\s*Allow\s*$/ }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const waiting = await card.innerText();
        assert.match(waiting, /generate_image/);
        if (/Price: about \$0\.04/.test(waiting)) break;
        assert.match(waiting, /Price unknown/, waiting);
        await card.locator('button', { hasText: /^\s*Deny\s*$/ }).click();
        await chat
          .locator('.msg.assistant .md', { hasText: 'Done. Tool results: generate_image=' })
          .nth(i)
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      }
      assert.match(await card.innerText(), /Price: about \$0\.04: 1 image\(s\) × \$0\.04, gpt-image-1/);
      await shot('e2e-tool-image-approval');
      await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
      const saved = card.locator('.tc-video.video-saved');
      await saved.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await saved.innerText(), /images\/a-paper-lantern-at-night-[0-9a-f]{8}\.png/);
      // The picture loads through the chat page's localResourceRoots and img-src, not just an element.
      const img = saved.locator('img.tc-image-preview');
      const deadline = Date.now() + UI_TIMEOUT;
      while ((await img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)) === 0) {
        if (Date.now() > deadline) throw new Error('the image in the card never loaded');
        await page.waitForTimeout(100);
      }
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: generate_image=Saved' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /Saved 1 image\(s\) to: images\/a-paper-lantern-at-night/);
      await shot('e2e-tool-image-saved');
    },
  },
];
