import * as assert from 'node:assert/strict';
import { countPromptTokens } from '../gateway/context';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const TURNS = 6;
const MODEL = 'gw-window-e2e';
const fileText = (n: number): string =>
  `File ${n} marker.\n${'const value = compute(input); // line of code\n'.repeat(170)}`;
const script = (n: number): string =>
  JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: `src/file${n}.ts` } }] }]);

export const journeys: Journey[] = [
  {
    name: 'context window: a long tool session in an 8k window compacts and keeps answering, nothing lost from the log',
    share: 'assorted',
    settings: (gw) => {
      // The local gateway's context knob: a model whose record states 8192 in llama.cpp's
      // `meta.n_ctx` and that refuses past it as llama-server does.
      gw.setContextWindow({ model: MODEL, window: 8192, shape: 'llama.cpp', field: 'meta.n_ctx' });
      return { ...chatSettings(gw), 'gatewayStudio.chatModel': MODEL };
    },
    files: Object.fromEntries(Array.from({ length: TURNS }, (_, i) => [`src/file${i + 1}.ts`, fileText(i + 1)])),
    async run({ wb, gw, shot }) {
      try {
        await wb.setApiKey(gw.keys.valid);
        const chat = await openChat(wb);
        // The meter is there before anything is sent, with the window the model list states.
        // (The default's 32768 until the model list has come.)
        const meter = chat.locator('.context-meter .context-text', { hasText: /of 8192 tokens/ });
        await meter.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        for (let n = 1; n <= TURNS; n++) {
          await sendMessage(
            chat,
            `Turn ${n}: ${'please read the next file carefully '.repeat(60)} #tools ${script(n)}`,
          );
          if (n === 1) {
            const card = chat.locator('section.toolcard').first();
            await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
            await card.locator('button', { hasText: /^\s*Always allow\s*$/ }).click();
          }
          const answer = chat.locator('.msg.assistant .md', { hasText: `read_file=File src/file${n}.ts` }).last();
          await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
          // The answer shows before the turn ends; Enter is ignored until Send is back.
          await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        }
        assert.equal(await chat.locator('.error').count(), 0, 'no error was shown');
        // Earlier turns were summarised; the block is collapsed and opens on a click.
        const block = chat.locator('details.summary-block');
        await block.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.match(await block.locator('summary').innerText(), /Earlier conversation summarised \(\d+ messages\)/);
        // Nothing lost: every question, every tool card and every answer is still in the log.
        assert.equal(await chat.locator('.msg.user').count(), TURNS);
        assert.equal(await chat.locator('section.toolcard').count(), TURNS);
        for (let n = 1; n <= TURNS; n++)
          assert.equal(
            await chat.locator('.msg.assistant .md', { hasText: `read_file=File src/file${n}.ts` }).count(),
            1,
            `answer ${n}`,
          );
        // The gateway never had to refuse: every request was fitted before it was sent.
        const sent = gw.requests().filter((r) => r.route === '/v1/chat/completions');
        assert.ok(sent.length >= TURNS * 2);
        for (const r of sent) {
          const b = r.body as { messages: Record<string, unknown>[]; tools?: unknown };
          assert.ok(countPromptTokens(b.messages, b.tools) <= 8192);
        }
        await block.locator('summary').click();
        await block.locator('.summary-text').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await shot('e2e-context-compacted');
      } finally {
        gw.setContextWindow({ enabled: false });
      }
    },
  },
];
