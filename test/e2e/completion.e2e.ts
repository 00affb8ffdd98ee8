// Inline completion like a user: typing in a TypeScript file brings ghost text from the local
// gateway's fill-in-the-middle model, Tab accepts it and the saved file holds exactly the expected
// text; typing on while a slow answer is still coming aborts that request at the HTTP level (the
// gateway records the closed connection).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Journey } from './journey';
import { UI_TIMEOUT } from './workbench';

const FILE = 'src/add.ts';
const START = 'export function add(a: number, b: number): number {\n  \n}\n';
const ACCEPTED = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const COMPLETIONS = 'POST /v1/completions';

/** Polls `check` until it holds (no fixed sleeps: each wait ends as soon as the state is there). */
async function until(what: string, check: () => boolean | Promise<boolean>, page: Page, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

export const journeys: Journey[] = [
  {
    name: 'inline completion: ghost text from the gateway, Tab accepts it, typing on aborts the request',
    // Typing against the debounce and a held request: its timing is the point.
    alone: true,
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.chatModel': 'gw-chat',
      'gatewayStudio.completions.model': 'gw-coder',
      'gatewayStudio.models.overrides': { 'gw-coder': { completion: 'fim' } },
      'gatewayStudio.completions.debounceMs': 100,
      // IntelliSense's own quick suggestions would open the suggest widget over "return" (and
      // rightly hold our request back); this journey is about the ghost text alone.
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.suggestOnTriggerCharacters': false,
      'files.autoSave': 'off',
    }),
    files: { [FILE]: START },
    async run({ page, wb, gw, cs, shot }) {
      await wb.setApiKey(gw.keys.valid);
      // The status-bar item naming the model shows once completion is on in this window: as a user
      // would, type after it is there (keystrokes before it reach no provider, and nothing asks again).
      await page
        .locator('.statusbar-item', { hasText: 'gw-coder' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await wb.openFile(FILE);
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await editor.locator('.view-lines').click();
      // Line 2 holds two spaces: put the cursor at its end and type like a user.
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      await page.keyboard.type('return ', { delay: 30 });

      // Monaco draws ghost text as decorations, split in spans (one per token) after the typed text.
      const ghost = editor.locator('.ghost-text-decoration, .ghost-text');
      const ghostText = async (): Promise<string> => (await ghost.allInnerTexts()).join('').replace(/\u00a0/g, ' ');
      await until(
        'the ghost text "a + b;"',
        async () => (await ghostText()).includes('a + b;'),
        page,
        UI_TIMEOUT,
      ).catch(async (e: unknown) => {
        const html = await editor.locator('.view-lines').innerHTML();
        throw new Error(`${String(e)}; the lines: ${html.slice(0, 3000)}`);
      });
      // The status-bar item names the model in use.
      await page
        .locator('.statusbar-item', { hasText: 'gw-coder' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-completion-ghost');
      // The README's picture: the ghost text in the editor and the model's name in the status bar.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-completion.png' });
      const body = gw.requests().find((r) => r.route === '/v1/completions')?.body as Record<string, unknown>;
      assert.equal(body.model, 'gw-coder');
      assert.equal(body.suffix, '\n}\n');

      await page.keyboard.press('Tab');
      await until('the ghost text accepted', async () => (await ghost.count()) === 0, page);
      await page.keyboard.press('Control+S');
      const onDisk = (): string => readFileSync(join(cs.workspace, FILE), 'utf8');
      // Saving truncates the file before writing it: wait for the text, not for any change.
      await until('the saved file', () => onDisk() !== START && onDisk() !== '', page);
      assert.equal(onDisk(), ACCEPTED);

      // Typing on: the next request is held by the slow gateway, the next keystroke aborts it.
      gw.setCompletions({ latencyMs: 5000 });
      const before = gw.counts()[COMPLETIONS] ?? 0;
      assert.equal(gw.abortedCompletions().length, 0);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('const sum', { delay: 30 });
      await until('a request in flight', () => (gw.counts()[COMPLETIONS] ?? 0) > before, page);
      await page.keyboard.type('2', { delay: 30 });
      await until('the aborted request in the gateway', () => gw.abortedCompletions().length >= 1, page);
      const [first] = gw.abortedCompletions();
      assert.equal(first?.model, 'gw-coder');
      // A request asked after the acceptance (right after Tab, or on the new line: the pace decides).
      assert.match(first?.promptTail ?? '', /return a \+ b;/);
      gw.setCompletions({ latencyMs: 0 });
    },
  },
];
