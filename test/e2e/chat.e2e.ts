import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

/** A 1x1 red PNG. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export const journeys: Journey[] = [
  {
    name: 'chat: pick a model, send a message and see the streamed markdown answer',
    share: 'chat',
    settings: chatSettings,
    async run({ wb, page, shot }) {
      await wb.setApiKey('sk-demo-gateway-studio');
      const chat = await openChat(wb);
      await sendMessage(chat, '#markdown');
      const answer = chat.locator('.msg.assistant').last();
      await answer.locator('.md h1, .md h2').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await answer.locator('.md table').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await answer.locator('.md pre code').first().waitFor({ state: 'visible' });
      // highlight.js is a chunk the page imports with its first code block (esbuild.js): it loads
      // in the real webview, under the page's CSP.
      await answer
        .locator('.md pre code .hljs-keyword, .md pre code .hljs-string')
        .first()
        .waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      // The user guide's picture (docs/USER-GUIDE.md, Chat): the question and the start of the rendered answer, sidebar closed.
      await wb.runCommand('View: Close Primary Side Bar');
      await chat.locator('.msg.user').last().scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      await shot('e2e-chat-markdown');
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-chat.png' });
      // pick another model in the model box; the answer names the aligned version it came from
      const model = chat.locator('input[aria-label="Model"]');
      await model.fill('gw-latest');
      await model.press('Tab');
      await sendMessage(chat, 'which model are you');
      await chat
        .locator('.msg.assistant')
        .last()
        .locator('.aligned')
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const aligned = await chat.locator('.msg.assistant').last().locator('.aligned').innerText();
      assert.match(aligned, /gw-latest/);
      // Hidden behind another editor and shown again, the page is the same one (it kept its
      // context): the conversation is not sent and mounted again at every switch.
      await chat.locator('body').evaluate((b) => b.setAttribute('data-e2e-mark', 'kept'));
      await wb.runCommand('File: New Untitled Text File');
      await page.locator('.monaco-editor textarea').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await wb.runCommand('View: Open Previous Editor');
      await chat.locator('.msg.assistant').last().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.locator('body').getAttribute('data-e2e-mark'), 'kept', 'the chat page was made again');
    },
  },
  {
    name: 'chat: stop a long answer midway; the partial answer stays, marked stopped',
    share: 'chat',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      gw.fault({ match: { path: '/v1/chat/completions' }, chunkDelayMs: 25, times: -1 });
      const chat = await openChat(wb);
      await sendMessage(chat, '#long 4000');
      const answer = chat.locator('.msg.assistant').last();
      await answer.locator('.md p').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const stop = chat.locator('button[aria-label="Stop"]');
      await stop.click();
      await answer.locator('.notice.stopped').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const words = (await answer.locator('.md').innerText()).split(/\s+/).length;
      assert.ok(words > 3 && words < 3000, `kept ${words} words of a 4000-token answer`);
      await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible' });
      await shot('e2e-chat-stopped');
      gw.clearFaults();
    },
  },
  {
    name: 'chat: a wrong key shows the 401 error with a Set API Key button; after fixing the key the chat answers',
    share: 'chat',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      await wb.setApiKey('sk-wrong-key-0000');
      const chat = await openChat(wb);
      await sendMessage(chat, 'hello there');
      const error = chat.locator('.error').last();
      await error.locator('.error-title').filter({ hasText: '401' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-chat-401');
      await error.locator('.error-actions button', { hasText: 'Set API Key' }).click();
      await wb.submitInput(gw.keys.valid, { password: true });
      await sendMessage(chat, 'hello again');
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: hello again' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    },
  },
  {
    name: 'chat: attach an image from the workspace and the vision model receives it',
    share: 'chat',
    settings: (gw) => ({ 'gatewayStudio.baseUrl': gw.url, 'gatewayStudio.chatModel': 'gw-vision' }),
    files: { 'pics/red.png': RED_PNG },
    async run({ wb, gw, cs, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await chat.locator('button[aria-label="Attach image"]').click();
      // In the browser the open dialog is VS Code's own path input.
      // It fills in the folder and lists it asynchronously; typing before that is overwritten.
      await wb.quickInput
        .locator('.monaco-list-row', { hasText: 'pics' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const target = `${cs.workspace}/pics/red.png`;
      const deadline = Date.now() + UI_TIMEOUT;
      for (;;) {
        await wb.quickInputBox.fill(target);
        await wb.quickInput
          .locator('.monaco-list-row', { hasText: 'red.png' })
          .first()
          .waitFor({ state: 'visible', timeout: 5000 })
          .catch(() => undefined);
        if ((await wb.quickInputBox.inputValue()) === target) {
          await wb.quickInputBox.press('Enter');
          try {
            await wb.quickInput.waitFor({ state: 'hidden', timeout: 5000 });
            break;
          } catch {
            // still open: fill and try again
          }
        }
        if (Date.now() > deadline)
          throw new Error(`the open dialog did not take ${target}; it shows "${await wb.quickInputBox.inputValue()}"`);
      }
      await chat.locator('.attachment img.thumb').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await sendMessage(chat, 'what is in this picture?');
      await chat
        .locator('.msg.assistant .md', { hasText: 'I received 1 image(s): image/png' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await page.waitForTimeout(200);
      await shot('e2e-chat-image');
    },
  },
  {
    name: 'chat: Select Chat Model lists the gateway models; the picked one answers in the chat with its reasoning',
    share: 'chat',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      await wb.runCommand('Gateway Studio: Select Chat Model');
      // The list comes from GET /v1/models; video models are left out.
      await wb.pick('gw-reasoner');
      await wb.notification('chat model set to gw-reasoner');
      const chat = await openChat(wb);
      const modelBox = chat.locator('input[aria-label="Model"]');
      const deadline = Date.now() + UI_TIMEOUT;
      while ((await modelBox.inputValue()) !== 'gw-reasoner') {
        if (Date.now() > deadline)
          throw new Error(`the chat's model box shows "${await modelBox.inputValue()}", not the picked gw-reasoner`);
        await new Promise((r) => setTimeout(r, 200));
      }
      await sendMessage(chat, 'think first');
      const answer = chat.locator('.msg.assistant').last();
      await answer
        .locator('details summary', { hasText: /Thinking|Thought for/ })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await answer.locator('.md', { hasText: 'Echo: think first' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-chat-reasoner');
    },
  },
];
