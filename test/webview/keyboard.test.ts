import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { AssistantMessage, HostMessage } from '../../src/shared/protocol';
import { openGallery, task, VIDEO_URL } from './galleryHarness';
import { openHarness, snapshot, type PageGlobal, useBrowser } from './harness';

/*
 * The chat and the gallery driven by the keyboard alone (Tab, Enter, Space, Escape, arrows):
 * where focus goes after Send, Stop and closing a panel, the roving tabindex of the history and
 * gallery lists, what the live region reads while an answer streams, and reduced motion.
 */

const browser = useBrowser();

/** What has focus: its aria-label, else its tag and class. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const a = (globalThis as unknown as { document: { activeElement: PageElementLike | null } }).document.activeElement;
    if (!a) return '';
    return a.getAttribute('aria-label') ?? `${a.tagName.toLowerCase()}.${a.getAttribute('class') ?? ''}`;
  });
}
interface PageElementLike {
  tagName: string;
  getAttribute(name: string): string | null;
}

/** Presses Tab until the element labelled `label` has focus (at most `max` times). */
async function tabTo(page: Page, label: string, max = 30, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === label) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached "${label}"; focus is on "${await focused(page)}"`);
}

const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: '',
  status: 'streaming',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

void test('Send from the button and Stop from the button leave focus in the message box', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.locator('textarea[aria-label="Message"]').fill('hello');
  await tabTo(h.page, 'Send');
  await h.page.keyboard.press('Enter');
  const sent = (await h.posted()).find((m) => m.type === 'chat/send');
  assert.ok(sent, 'Enter on Send posted chat/send');
  await h.frames();
  assert.equal(await focused(h.page), 'Message', 'focus went back to the message box after Send');
  const requestId = String(sent.requestId);
  await h.send({ type: 'chat/busy', requestId });
  await h.send({ type: 'chat/message', requestId, message: answer('a1') });
  await tabTo(h.page, 'Stop');
  await h.page.keyboard.press('Space');
  assert.ok((await h.posted()).some((m) => m.type === 'chat/cancel' && m.requestId === requestId));
  await h.send({ type: 'chat/done', requestId, message: answer('a1', { status: 'stopped', content: 'Part' }) });
  assert.equal(await focused(h.page), 'Message', 'focus went back to the message box when Stop disappeared');
  await h.page.context().close();
});

void test('each panel takes focus when it opens and gives it back to the message box when it closes', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'tools/list',
    choice: 'auto',
    tools: [{ name: 'read_file', description: 'Reads a file.', readOnly: true, enabled: true, trusted: false }],
  });
  for (const [button, close] of [
    ['History', 'Escape'],
    ['Conversation settings', 'Close button'],
    ['Tools', 'Escape'],
    ['History', 'toggle'],
  ] as const) {
    await h.page.locator('textarea[aria-label="Message"]').focus();
    await tabTo(h.page, button, 30, 'Shift+Tab');
    await h.page.keyboard.press('Enter');
    await h.frames();
    const inPanel = await h.page.evaluate(() =>
      Boolean(
        (
          globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null } }
        ).document.activeElement?.closest('.panel'),
      ),
    );
    assert.ok(inPanel, `opening ${button} put focus inside the panel (it is on "${await focused(h.page)}")`);
    if (close === 'Escape') await h.page.keyboard.press('Escape');
    else if (close === 'Close button') {
      await tabTo(h.page, 'Close', 30, 'Shift+Tab');
      await h.page.keyboard.press('Enter');
    } else await h.page.locator(`button[aria-label="${button}"]`).click();
    await h.frames();
    assert.equal(await h.page.locator('.panel').isHidden(), true, `${button} closed with ${close}`);
    assert.equal(await focused(h.page), 'Message', `focus back in the message box after ${button} closed (${close})`);
  }
  await h.page.context().close();
});

void test('the history list is one Tab stop: the arrow keys move between conversations and Enter opens one', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.locator('button[aria-label="History"]').focus();
  await h.page.keyboard.press('Enter');
  await h.send({
    type: 'history/list',
    activeId: 'c1',
    entries: [
      { id: 'c1', title: 'First', updatedAt: 3, messageCount: 2 },
      { id: 'c2', title: 'Second', updatedAt: 2, messageCount: 2 },
      { id: 'c3', title: 'Third', updatedAt: 1, messageCount: 2 },
    ],
  });
  // Only the current row's buttons are in the Tab order.
  const tabbable = await h.page
    .locator('.history-list button')
    .evaluateAll((bs) =>
      bs.filter((b) => b.getAttribute('tabindex') !== '-1').map((b) => b.getAttribute('aria-label')),
    );
  assert.deepEqual(tabbable, ['Open: First', 'Rename: First', 'Delete: First']);
  await tabTo(h.page, 'Open: First');
  await h.page.keyboard.press('ArrowDown');
  assert.equal(await focused(h.page), 'Open: Second');
  await h.page.keyboard.press('End');
  assert.equal(await focused(h.page), 'Open: Third');
  await h.page.keyboard.press('ArrowUp');
  assert.equal(await focused(h.page), 'Open: Second');
  await h.page.keyboard.press('Tab');
  assert.equal(await focused(h.page), 'Rename: Second', 'Tab goes on to the focused row’s own buttons');
  await h.page.keyboard.press('Shift+Tab');
  await h.clearPosted();
  await h.page.keyboard.press('Enter');
  assert.deepEqual(
    (await h.posted()).filter((m) => m.type === 'history/open'),
    [{ type: 'history/open', conversationId: 'c2' }],
  );
  await h.frames();
  assert.equal(await focused(h.page), 'Message', 'picking a conversation closes the panel and focuses the composer');
  await h.page.context().close();
});

void test('a copy button of a code block is reached with Tab and works with Enter', async () => {
  const h = await openHarness(browser());
  await h.send(
    snapshot({
      conversation: {
        id: 'c1',
        title: '',
        createdAt: 1,
        updatedAt: 1,
        model: '',
        params: {},
        messages: [answer('a1', { status: 'done', content: '```js\nconst x = 1;\n```' })],
      },
    }),
  );
  await h.page.locator('button[aria-label="Export to Markdown"]').focus();
  await tabTo(h.page, 'Copy code');
  await h.page.keyboard.press('Enter');
  assert.deepEqual(
    (await h.posted()).filter((m) => m.type === 'code/copy'),
    [{ type: 'code/copy', code: 'const x = 1;\n' }],
  );
  await h.page.context().close();
});

void test('a streamed answer is read out once when it is finished, not per delta', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal & {
      __spoken: string[];
      MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void };
    };
    g.__spoken = [];
    const region = g.document.querySelector('[aria-live="polite"][role="status"]') as unknown as {
      textContent: string;
    };
    new g.MutationObserver(() => g.__spoken.push(region.textContent)).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await h.send({ type: 'chat/busy', requestId: 'r1' });
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  const words = 'The answer comes in many small pieces.\n\nA second paragraph follows it here.'.split(/(?<= )/);
  for (const w of words) await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: w });
  const content = words.join('');
  await h.send({ type: 'chat/done', requestId: 'r1', message: answer('a1', { status: 'done', content }) });
  const spoken = await h.page.evaluate(() => (globalThis as unknown as { __spoken: string[] }).__spoken);
  assert.ok(words.length > 10);
  assert.deepEqual(spoken, [
    'Answer started.',
    'Answer finished: The answer comes in many small pieces. A second paragraph follows it here.',
  ]);
  await h.page.context().close();
});

void test('panels ease in, unless the system asks for reduced motion: then nothing animates', async () => {
  for (const motion of ['no-preference', 'reduce'] as const) {
    const h = await openHarness(browser());
    await h.page.emulateMedia({ reducedMotion: motion });
    await h.send(snapshot());
    await h.page.locator('button[aria-label="History"]').click();
    await h.send({
      type: 'tools/call',
      update: { callId: 'c1', name: 'read_file', argumentsJson: '{}', state: 'running', readOnly: true },
    });
    const names = await h.page.evaluate(() => {
      const g = globalThis as unknown as PageGlobal & {
        getComputedStyle(e: unknown): { animationName: string };
      };
      return {
        panel: g.getComputedStyle(g.document.querySelector('.panel')).animationName,
        spinner: g.getComputedStyle(g.document.querySelector('.codicon-modifier-spin')).animationName,
      };
    });
    if (motion === 'reduce') assert.deepEqual(names, { panel: 'none', spinner: 'none' });
    else assert.deepEqual(names, { panel: 'panel-in', spinner: 'codicon-spin' });
    await h.page.context().close();
  }
});

void test('the gallery list is one Tab stop: the arrow keys move between videos and Enter opens the saved one', async () => {
  const g = await openGallery(browser());
  await g.send({
    type: 'gallery/state',
    tasks: [
      task({ key: 'run', prompt: 'a running fox', state: 'polling', stateLabel: 'in_progress', running: true }),
      task({ key: 'ok', prompt: 'a saved boat', src: VIDEO_URL, file: 'videos/boat.mp4' }),
      task({ key: 'bad', prompt: 'a failed comet', state: 'failed', stateLabel: 'failed' }),
    ],
  });
  const tabbable = await g.page.locator('li.task').evaluateAll((ls) => ls.map((l) => l.getAttribute('tabindex')));
  assert.deepEqual(tabbable, ['0', '-1', '-1']);
  await g.page.locator('input[aria-label="Search media"]').focus();
  await g.page.keyboard.press('Tab');
  const card = () =>
    g.page.evaluate(() =>
      (globalThis as unknown as PageGlobal).document.querySelector(':focus')?.getAttribute('data-key'),
    );
  assert.equal(await card(), 'run');
  await g.page.keyboard.press('ArrowDown');
  assert.equal(await card(), 'ok');
  await g.page.keyboard.press('Enter');
  assert.ok(
    (await g.posted()).some((m) => m.type === 'gallery/action' && m.key === 'ok' && m.action === 'open'),
    'Enter on the saved video opened it',
  );
  await g.page.keyboard.press('End');
  assert.equal(await card(), 'bad');
  await g.page.keyboard.press('Home');
  assert.equal(await card(), 'run');
  await g.page.context().close();
});

void test('every control of the chat (panel open) has an accessible name: a label, text or an enclosing label', async () => {
  const h = await openHarness(browser());
  const msg: HostMessage = snapshot();
  await h.send(msg);
  await h.page.locator('button[aria-label="Tools"]').click();
  const unnamed = await h.page.locator('button, input, select, textarea, [tabindex="0"]').evaluateAll((els) =>
    els
      .filter((e) => {
        const label = e.getAttribute('aria-label') ?? e.getAttribute('aria-labelledby') ?? e.getAttribute('title');
        const text = (e.textContent ?? '').trim();
        const wrapped = e.closest('label') !== null;
        return !label && !text && !wrapped;
      })
      .map((e) => e.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unnamed, []);
  await h.page.context().close();
});
