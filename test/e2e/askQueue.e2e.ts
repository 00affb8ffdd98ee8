import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

// ask_user's question card answers the model, and a message typed while a tool runs (the question
// waits: the turn is mid tool round) is sent after the round, as the next user message.

const QUESTION = { question: 'Which database should the demo use?', options: ['Postgres', 'SQLite'] };
const script = JSON.stringify([{ calls: [{ name: 'ask_user', arguments: QUESTION }] }]);

/** The messages of the local gateway's chat requests, oldest request first. */
function chatRequests(gw: Parameters<Journey['run']>[0]['gw']): { role: string; content?: unknown }[][] {
  return gw
    .requests()
    .filter((r) => r.route === '/v1/chat/completions')
    .map((r) => (r.body as { messages: { role: string; content?: unknown }[] }).messages);
}

export const journeys: Journey[] = [
  {
    name: 'ask_user: the question card shows buttons, a click answers the model, no approval first',
    share: 'askQueue',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `set up the demo #tools ${script}`);
      const card = chat.locator('section.toolcard').first();
      const options = card.getByRole('radiogroup', { name: QUESTION.question });
      await options.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(
        await card.getByRole('button', { name: 'Allow', exact: true }).count(),
        0,
        'a question asks no approval',
      );
      await shot('e2e-ask-user-question');
      await options.getByRole('radio', { name: /SQLite/ }).click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: ask_user=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /The user chose option 2: "SQLite"/);
      await shot('e2e-ask-user-answered');
    },
  },
  {
    name: 'queued messages: a message typed while a tool runs is shown as queued and sent after the tool round',
    share: 'askQueue',
    settings: chatSettings,
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      gw.resetCounts();
      const chat = await openChat(wb);
      await sendMessage(chat, `set up the demo #tools ${script}`);
      const options = chat.locator('section.toolcard').first().getByRole('radiogroup');
      await options.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // The turn waits in its tool round: what is typed now is queued, not lost and not refused.
      await sendMessage(chat, '#say I read your queued note about the docs.');
      const queued = chat.getByRole('region', { name: 'Queued messages' });
      await queued.getByRole('listitem').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await queued.innerText(), /queued note about the docs/);
      await shot('e2e-queued-message');
      // The README's picture: an ask_user question with its choices, and a message queued under it.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-ask-queue.png' });
      await options.getByRole('radio', { name: /Postgres/ }).click();
      const answer = chat.locator('.msg.assistant .md', { hasText: 'I read your queued note about the docs.' });
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await queued.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      // The request after the round carried the tool's result, then the queued message.
      const last = chatRequests(gw).at(-1) ?? [];
      assert.deepEqual(
        last.slice(-3).map((m) => m.role),
        ['assistant', 'tool', 'user'],
      );
      assert.match(JSON.stringify(last.at(-2)?.content), /The user chose option 1/);
      assert.match(JSON.stringify(last.at(-1)?.content), /queued note about the docs/);
    },
  },
];
