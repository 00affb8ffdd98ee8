import * as assert from 'node:assert/strict';
import type { FrameLocator, Frame, Page } from 'playwright-core';
import type { Journey } from './journey';
import { chatSettings, UI_TIMEOUT, type Workbench } from './workbench';

/*
 * The whole product with the keyboard alone: no click, no fill. Every user action below is a key
 * press (Tab, Shift+Tab, Enter, Space, Escape, the arrow keys) or typed text; locators only wait
 * for and read what the screen shows.
 */

/** Runs a command from the palette: F1, type its title, arrow to its row if needed, Enter. */
async function palette(wb: Workbench, page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await wb.quickInputBox.waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.type(title);
      const focusedRow = wb.quickInput.locator('.monaco-list-row.focused .label-name');
      const deadline = Date.now() + 15_000;
      for (;;) {
        const label = (await focusedRow.innerText({ timeout: 2000 }).catch(() => '')).trim();
        if (label === title) break;
        if (Date.now() > deadline) throw new Error(`the palette never focused "${title}" (focused: "${label}")`);
        // Another row is first: move down to ours (the list is filtered, so it is near).
        if (label) await page.keyboard.press('ArrowDown');
        await page.waitForTimeout(150);
      }
      await page.keyboard.press('Enter');
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** Types into the input box a command opened and presses Enter until it closes (validation lags). */
async function answerInput(wb: Workbench, page: Page, text: string): Promise<void> {
  await wb.quickInput
    .locator('.quick-input-box input[type="password"]')
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.type(text);
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    await page.keyboard.press('Enter');
    try {
      await wb.quickInputBox.waitFor({ state: 'hidden', timeout: 3000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error('the input box did not take the key', { cause: e });
    }
  }
}

/** The aria-label (else the text, else the tag) of what has focus inside the chat's page. */
async function focusedIn(chat: FrameLocator): Promise<string> {
  return chat
    .locator(':focus')
    .first()
    .evaluate(
      (e) => e.getAttribute('aria-label') ?? ((e.textContent ?? '').trim() || e.tagName.toLowerCase()),
      undefined,
      { timeout: 2000 },
    )
    .catch(() => '(nothing)');
}

/** Presses `key` (Tab or Shift+Tab) until the control labelled `label` has focus. */
async function tabTo(page: Page, chat: FrameLocator, label: string, key = 'Tab', max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focusedIn(chat)) === label) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached "${label}" (focus is on "${await focusedIn(chat)}")`);
}

async function until(what: string, check: () => Promise<boolean>, page: Page, timeoutMs = UI_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(150);
  }
}

/**
 * The gallery's frame once it shows a saved task. The view's frame is replaced when its resource
 * roots change (a task saved to a new folder), so the task is looked for in whichever frame holds
 * the gallery now (a wait on the first one failed with "Frame was detached" in a clean-clone run).
 */
async function savedTaskFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await until(
    'a saved task in the video gallery',
    async () => {
      const f = await galleryFrame(page).catch(() => undefined);
      const shown = await f
        ?.locator('li.task[data-state="saved"]')
        .isVisible()
        .catch(() => false);
      found = shown ? f : undefined;
      return found !== undefined;
    },
    page,
  );
  return found!;
}

/** Waits until no answer runs (Send is shown again): Enter while one runs sends nothing. */
async function idle(chat: FrameLocator): Promise<void> {
  await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** The gallery's frame (the chat's may be open too). */
async function galleryFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    for (const f of page.frames())
      if (
        (await f
          .locator('main.gallery')
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    if (Date.now() > deadline) throw new Error('the video gallery never appeared');
    await page.waitForTimeout(200);
  }
}

interface Clip {
  navigator: { clipboard: { readText(): Promise<string> } };
}

const readPlan = JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path: 'notes/plan.txt' } }] }]);
const makeVideo = JSON.stringify([
  { calls: [{ name: 'generate_video', arguments: { prompt: 'a kite by keyboard', model: 'vendor-image-video' } }] },
]);

export const journeys: Journey[] = [
  {
    name: 'keyboard only: open the chat, send, stop, pick a conversation from history, copy a code block, approve a tool call and open a gallery video',
    settings: (gw) => ({
      ...chatSettings(gw),
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    files: { 'notes/plan.txt': 'Plan: ship the keyboard journey on Friday.\n' },
    async run({ wb, gw, page, shot }) {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(page.url()).origin,
      });
      await palette(wb, page, 'Gateway Studio: Set API Key');
      await answerInput(wb, page, gw.keys.valid);

      // Open the chat with its shortcut; the message box takes focus.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Alt+KeyG');
      const chat = wb.webview();
      const box = chat.locator('textarea[aria-label="Message"]');
      await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until('focus in the message box', async () => (await focusedIn(chat)) === 'Message', page);

      // Send.
      await page.keyboard.type('hello from the keyboard');
      await page.keyboard.press('Enter');
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: hello from the keyboard' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

      // Stop a long answer with Escape; focus stays in the message box.
      await idle(chat);
      gw.fault({ match: { path: '/v1/chat/completions' }, chunkDelayMs: 25, times: 1 });
      await page.keyboard.type('#long 4000');
      await page.keyboard.press('Enter');
      await chat
        .locator('.msg.assistant')
        .nth(1)
        .locator('.md p')
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await page.keyboard.press('Escape');
      await chat.locator('.notice.stopped').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      gw.clearFaults();
      assert.equal(await focusedIn(chat), 'Message', 'after Stop the message box has focus');

      // A second conversation: New chat from the toolbar (Shift+Tab to it), then a question.
      await tabTo(page, chat, 'New chat', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await until('an empty log', async () => (await chat.locator('.msg').count()) === 0, page);
      await until('focus back in the message box', async () => (await focusedIn(chat)) === 'Message', page);
      await page.keyboard.type('second conversation');
      await page.keyboard.press('Enter');
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: second conversation' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await idle(chat);

      // History: open it, arrow down to the first conversation, Enter.
      await tabTo(page, chat, 'History', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await chat.locator('.history-list .history-open').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until('focus on a history row', async () => (await focusedIn(chat)).startsWith('Open: '), page);
      const first = await focusedIn(chat);
      await page.keyboard.press('ArrowDown');
      const picked = await focusedIn(chat);
      assert.notEqual(picked, first, 'ArrowDown moved to the other conversation');
      await shot('e2e-keyboard-history');
      await page.keyboard.press('Enter');
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: hello from the keyboard' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.locator('.panel').isHidden(), true, 'the history panel closed');
      await until('focus back in the message box', async () => (await focusedIn(chat)) === 'Message', page);

      // A code block's copy button, reached backwards from the message box.
      await idle(chat);
      await page.keyboard.type('#markdown');
      await page.keyboard.press('Enter');
      await chat
        .locator('.msg.assistant')
        .last()
        .locator('.codeblock')
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until('the answer finished', async () => await chat.locator('button[aria-label="Send"]').isVisible(), page);
      await tabTo(page, chat, 'Copy code', 'Shift+Tab');
      const code = await chat
        .locator(':focus')
        .evaluate((b) => b.closest('.codeblock')?.querySelector('pre')?.textContent ?? '');
      await page.keyboard.press('Enter');
      await until(
        'the code in the clipboard',
        async () =>
          (await page
            .evaluate(() => (globalThis as unknown as Clip).navigator.clipboard.readText())
            .catch(() => '')) === code,
        page,
      );

      // A tool call: its Allow button takes focus when the card asks; Enter approves.
      await tabTo(page, chat, 'Message');
      await page.keyboard.type(`read my plan #tools ${readPlan}`);
      await page.keyboard.press('Enter');
      await chat.locator('section.toolcard.state-awaiting-approval').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until('focus on Allow', async () => (await focusedIn(chat)) === 'Allow', page);
      await shot('e2e-keyboard-tool-card');
      await page.keyboard.press('Enter');
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /ship the keyboard journey/);
      await idle(chat);

      // A video by tool call (approved with Space this time), then the gallery: Tab to the card, Enter.
      await until('focus back in the message box', async () => (await focusedIn(chat)) === 'Message', page);
      await page.keyboard.type(`make a video #tools ${makeVideo}`);
      await page.keyboard.press('Enter');
      const videoCard = chat.locator('section.toolcard.state-awaiting-approval');
      await videoCard.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await until('focus on Allow', async () => (await focusedIn(chat)) === 'Allow', page);
      await page.keyboard.press('Space');
      await chat.locator('.tc-video.video-saved').waitFor({ state: 'visible', timeout: 120_000 });

      // The command focuses the Videos view; when it also has to open the sidebar, VS Code may hand
      // focus to the first view there (the chat) instead: the same command once more moves it.
      await palette(wb, page, 'Gateway Studio: Show Video Tasks');
      let g = await savedTaskFrame(page);
      const hasFocus = (f: Frame) =>
        f.evaluate(() => (globalThis as unknown as { document: { hasFocus(): boolean } }).document.hasFocus());
      for (let i = 0; i < 3 && !(await hasFocus(g)); i++) {
        await palette(wb, page, 'Gateway Studio: Show Video Tasks');
        await page.waitForTimeout(500);
        g = await galleryFrame(page);
      }
      for (let i = 0; i < 12 && !(await g.locator('li.task:focus').count()); i++) await page.keyboard.press('Tab');
      assert.equal(await g.locator('li.task:focus').count(), 1, 'Tab reached the list of videos');
      await shot('e2e-keyboard-gallery');
      await page.keyboard.press('Enter');
      await page
        .locator('.tabs-container .tab', { hasText: /a-kite-by-keyboard.*\.mp4/ })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    },
  },
];
