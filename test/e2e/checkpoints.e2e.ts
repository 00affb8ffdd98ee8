import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const A = 'Plan A: ship on Friday.\n';
const B = 'Plan B: ship on Monday.\n';
const script = JSON.stringify([
  {
    calls: [
      { name: 'edit_file', arguments: { path: 'notes/a.txt', oldText: 'Friday', newText: 'Saturday' } },
      { name: 'edit_file', arguments: { path: 'notes/b.txt', oldText: 'Monday', newText: 'Sunday' } },
    ],
  },
]);

export const journeys: Journey[] = [
  {
    name: 'checkpoints: after an answer edited two files and a window reload, Restore shows both, brings both back and cuts the conversation back',
    share: 'assorted',
    settings: chatSettings,
    files: { 'notes/a.txt': A, 'notes/b.txt': B },
    async run({ wb, gw, cs, page, shot }) {
      const read = (rel: string) => fs.readFile(path.join(cs.workspace, rel), 'utf8');
      await wb.setApiKey(gw.keys.valid);
      let chat = await openChat(wb);
      await sendMessage(chat, `move both dates #tools ${script}`);
      // The calls run one after the other. Each proposed change opens its diff over the chat
      // panel's editor group, so the chat is off screen and the quick pick asks (the card too).
      for (const file of ['notes/a.txt', 'notes/b.txt']) await wb.pick(new RegExp(`Allow[\\s\\S]*${file}`));
      // The applied edits open their files in the chat's editor group: once both are on disk,
      // Open Chat brings the chat back to the front.
      const edited = Date.now() + UI_TIMEOUT;
      while ((await read('notes/b.txt')) !== 'Plan B: ship on Sunday.\n') {
        if (Date.now() > edited) throw new Error('the second edit was not applied');
        await page.waitForTimeout(100);
      }
      await page.waitForTimeout(1000);
      chat = await openChat(wb);
      await chat
        .locator('.msg.assistant .md', { hasText: 'Done. Tool results: edit_file=' })
        .last()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await read('notes/a.txt'), 'Plan A: ship on Saturday.\n');
      assert.equal(await read('notes/b.txt'), 'Plan B: ship on Sunday.\n');

      // The checkpoint is on disk, not in the page: it survives a reload.
      await wb.reloadWindow();
      chat = await openChat(wb);
      const restore = chat.locator('button', { hasText: 'Restore files to before this answer' });
      await restore.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await restore.count(), 1, 'only the answer that changed files offers Restore');
      await restore.first().click();
      const panel = chat.locator('section.restore-panel');
      await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const files = await panel.locator('.restore-file code').allInnerTexts();
      assert.deepEqual(files, ['notes/a.txt', 'notes/b.txt']);
      assert.match(await panel.innerText(), /will be restored[\s\S]*will be restored/);
      await panel.locator('.restore-file[data-path="notes/a.txt"] details summary').click();
      assert.match(
        await panel.locator('.restore-file[data-path="notes/a.txt"] pre').innerText(),
        /-Plan A: ship on Saturday\.\n\+Plan A: ship on Friday\./,
      );
      await shot('e2e-checkpoint-restore-panel');
      // The README's picture of checkpoints: the Restore panel with each file and its diff.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-checkpoints.png' });
      await panel.locator('label.restore-cut input').check();
      await panel.locator('button', { hasText: /^\s*Restore\s*$/ }).click();

      const deadline = Date.now() + UI_TIMEOUT;
      while ((await read('notes/a.txt')) !== A || (await read('notes/b.txt')) !== B) {
        if (Date.now() > deadline)
          throw new Error(`not restored: ${JSON.stringify([await read('notes/a.txt'), await read('notes/b.txt')])}`);
        await page.waitForTimeout(100);
      }
      // Cut back: the answers are gone, the question stays.
      await chat.locator('.msg.assistant').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      assert.deepEqual(await chat.locator('.msg.user .user-text').allInnerTexts(), [
        `move both dates #tools ${script}`,
      ]);
      await panel.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    },
  },
];
