// fetch_url in the chat (issue 42 item 2): a page served by a local web server on 127.0.0.1 (the
// user allowed that host in their own settings) arrives as Markdown after the user allows the
// domain; a URL in the user's network that they did not allow, and a redirect into it, are refused.
// Each journey has its own workbench: the domain "Always allow" of the first must not reach the second.
import * as assert from 'node:assert/strict';
import { startWebPages } from '../support/webPages';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const fetchScript = (...urls: string[]) =>
  JSON.stringify([{ calls: urls.map((url) => ({ name: 'fetch_url', arguments: { url } })) }]);

/** The user's own setting: 127.0.0.1 may be read, `localhost` (another host name) may not. */
const webSettings = (gw: { url: string }) => ({
  ...chatSettings(gw),
  'gatewayStudio.web.allowPrivateHosts': ['127.0.0.1'],
});

export const journeys: Journey[] = [
  {
    name: 'web: fetch_url of a page on a local server arrives as Markdown once the user allows its domain',
    settings: webSettings,
    async run({ wb, gw, shot }) {
      const pages = await startWebPages();
      try {
        await wb.setApiKey(gw.keys.valid);
        const chat = await openChat(wb);
        await sendMessage(chat, `read the notes #tools ${fetchScript(`${pages.base}/article`)}`);
        const card = chat.locator('section.toolcard').first();
        await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(await card.innerText(), /fetch_url/);
        assert.match(await card.innerText(), /127\.0\.0\.1/);
        await shot('e2e-web-awaiting-approval');
        await card.locator('button', { hasText: /^\s*Always allow\s*$/ }).click();
        const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: fetch_url=' }).last();
        await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(
          await answer.innerText(),
          /fetch_url=Fetched http:\/\/127\.0\.0\.1:\d+\/article: HTTP 200, markdown/,
        );
        // The card's result holds the page as Markdown: the heading, a link made absolute, no script.
        const result = (await card.locator('.tc-result pre').textContent()) ?? '';
        assert.match(result, /^#+ Streaming answers$/m);
        assert.match(result, /\[delta\]\(http:\/\/127\.0\.0\.1:\d+\/docs\/delta\)/);
        assert.doesNotMatch(result, /IGNORE ALL PREVIOUS|document\.title/);
        await shot('e2e-web-markdown');
        // The domain is remembered for the user: the next fetch from it does not ask.
        await sendMessage(chat, `and the data #tools ${fetchScript(`${pages.base}/data.json`)}`);
        const again = chat.locator('.msg.assistant .md', { hasText: /fetch_url=Fetched \S+data\.json/ }).last();
        await again.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(await again.innerText(), /data\.json: HTTP 200, application\/json/);
      } finally {
        await pages.close();
      }
    },
  },
  {
    name: 'web: a URL in the user network they did not allow, and a redirect into it, are refused with a clear line',
    settings: webSettings,
    async run({ wb, gw, shot }) {
      const pages = await startWebPages();
      try {
        await wb.setApiKey(gw.keys.valid);
        const chat = await openChat(wb);
        const direct = `http://localhost:${pages.port}/article`;
        await sendMessage(chat, `read it #tools ${fetchScript(direct, `${pages.base}/redirect-private`)}`);
        // The direct one is refused before anything is asked; the redirect is asked (127.0.0.1 is
        // allowed), then refused where it points.
        const asking = chat.locator('section.toolcard', { hasText: 'redirect-private' }).first();
        await asking.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await asking.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
        const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: fetch_url=' }).last();
        await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const text = await answer.innerText();
        assert.equal(text.match(/fetch_url=Error: Refused: localhost:\d+ is an address in the user/g)?.length, 2, text);
        assert.doesNotMatch(text, /Streaming answers/);
        await shot('e2e-web-refused');
      } finally {
        await pages.close();
      }
    },
  },
];
