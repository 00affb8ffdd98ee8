import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const script = JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: 'notes/plan.txt' } }] }]);

export const journeys: Journey[] = [
  {
    name: 'tools: the model asks to read a file, the user allows it in the card, and the answer uses the result',
    settings: chatSettings,
    files: { 'notes/plan.txt': 'Plan: ship the gateway studio demo on Friday.\n' },
    async run({ wb, gw, shot }) {
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
    },
  },
  {
    name: 'tools: a denied call does not run and the model is told the user declined',
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
];
