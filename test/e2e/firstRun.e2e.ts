// The first five minutes as a new user has them (issue 43 item 5): the gateway's address is set,
// no key yet. The chat's empty state says what to do next with the button that does it, and the
// model list asked for without a key shows no "401" for a request never authorised; once the
// key is set the model box offers the gateway's list, and the first answer's cost line explains
// itself on hover. With GWS_UPDATE_SCREENSHOT set, the before/after pictures go to docs/images.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { Journey } from './journey';
import { openChat, sendMessage, UI_TIMEOUT } from './workbench';

async function picture(page: Page, shot: (name: string) => Promise<void>, name: string): Promise<void> {
  await shot(`e2e-${name}`);
  if (process.env.GWS_UPDATE_SCREENSHOT) {
    mkdirSync('docs/images', { recursive: true });
    await page.screenshot({ path: `docs/images/${name}.png` });
  }
}

export const journeys: Journey[] = [
  {
    name: 'first run: with no key the empty chat offers Set API Key and shows no 401 for the keyless model list; then the model box lists the gateway models and the cost line explains itself',
    settings: (gw) => ({ 'gatewayStudio.baseUrl': gw.url }),
    async run({ wb, gw, page, shot }) {
      const chat = await openChat(wb);
      const setKey = chat.locator('.log .empty button', { hasText: 'Set API Key' });
      // The page asks for the model list when it loads; give that answer time to arrive.
      await setKey.waitFor({ state: 'visible', timeout: UI_TIMEOUT }).catch(() => undefined);
      await page.waitForTimeout(1500);
      await picture(page, shot, 'first-run-no-key');
      const notes = (await chat.locator('.composer-notes').innerText()).trim();
      assert.doesNotMatch(notes, /401|refused/i, `a request never authorised reported an error: ${notes}`);
      // The model list is asked for without a key (a local server that needs none answers it); the
      // gateway's refusal of it is the Set API Key line, not an error. Nothing else went out.
      const sent = gw.requests().filter((r) => r.path.startsWith('/v1/'));
      assert.deepEqual(
        [...new Set(sent.map((r) => `${r.method} ${r.path} ${r.auth}`))],
        ['GET /v1/models missing'],
        'before there is a key only the model list is asked for, without one',
      );
      assert.equal(await setKey.count(), 1, 'the empty chat has a Set API Key button');
      await setKey.click();
      await wb.submitInput(gw.keys.valid, { password: true });
      await wb.notification('API key saved');
      // The key is here: the empty state is the usual one again, and the model box lists the models.
      await chat.locator('.log .empty', { hasText: 'Start a conversation' }).waitFor({ timeout: UI_TIMEOUT });
      const options = chat.locator('datalist#model-list option');
      await options.first().waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      const listed = await options.evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
      assert.ok(listed.includes('gw-chat'), `the model box lists ${JSON.stringify(listed)}`);
      const model = chat.locator('input[aria-label="Model"]');
      await model.fill('gw-chat');
      await model.press('Tab');
      await sendMessage(chat, 'hello there');
      const answer = chat.locator('.msg.assistant').last();
      await answer.locator('.md', { hasText: 'Echo: hello there' }).waitFor({ timeout: UI_TIMEOUT });
      const cost = answer.locator('.cost');
      await cost.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const title = (await cost.getAttribute('title')) ?? '';
      assert.match(title, /price/i, `the cost line's tooltip says where the price comes from: ${title}`);
      assert.match(title, /token/i, `the cost line's tooltip says what the figure counts: ${title}`);
      await cost.hover();
      await picture(page, shot, 'first-run-with-key');
    },
  },
];
