import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const script = JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: 'notes/plan.txt' } }] }]);

export const journeys: Journey[] = [
  {
    name: 'responses: a responses-only model answers with a tool round trip and its thinking; a <think> model shows thinking, never the tags',
    settings: (gw) => ({ ...chatSettings(gw), 'gatewayStudio.chatModel': 'gw-codex' }),
    files: { 'notes/plan.txt': 'Plan: ship the responses demo on Friday.\n' },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `read my plan #tools ${script}`);
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /ship the responses demo/);
      // The chat refused it once (404, responses only); every later request went to /v1/responses.
      const counts = gw.counts();
      assert.ok((counts['POST /v1/chat/completions'] ?? 0) >= 1, JSON.stringify(counts));
      assert.ok((counts['POST /v1/responses'] ?? 0) >= 2, JSON.stringify(counts));
      const thinking = chat.locator('.msg.assistant details.reasoning summary', { hasText: /Thought for/ }).first();
      await thinking.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-responses-tool-round-trip');

      const model = chat.locator('input[aria-label="Model"]');
      await model.fill('gw-think');
      await model.press('Tab');
      await sendMessage(chat, 'think it over');
      const last = chat.locator('.msg.assistant').last();
      await last.locator('.md', { hasText: 'Echo: think it over' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const details = last.locator('details.reasoning');
      await details
        .locator('summary', { hasText: /Thought for|Thinking/ })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await details.getAttribute('open'), null, 'folded once the answer is done');
      await details.locator('summary').click();
      assert.match(await details.innerText(), /I will answer plainly/);
      assert.doesNotMatch(await last.locator('.md').innerText(), /think>/);
      await shot('e2e-responses-think-tags');
    },
  },
];
