import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import type { HistoryEntry } from '../../src/shared/protocol';
import { openGallery, task } from './galleryHarness';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * Long lists mount in steps (webview/common/revealed.ts): the history panel and the gallery show
 * their first screen at once, every row is in the DOM a few frames later, a search starts over,
 * and End goes to the last row even before it was mounted.
 */

const browser = useBrowser();

interface Doc {
  document: {
    querySelectorAll(s: string): { length: number; [i: number]: { focus(): void; dispatchEvent(e: unknown): void } };
    activeElement: { getAttribute(n: string): string | null } | null;
  };
  addEventListener(t: string, f: () => void, o: object): void;
  postMessage(m: unknown, o: string): void;
  KeyboardEvent: new (t: string, o: object) => unknown;
}

/**
 * Posts `message`, and right after the page handled it (before the next frame mounts more rows)
 * counts `rows`, focuses the first row's `focusable` and presses End there. Resolves with the count.
 */
function postThenEnd(page: Page, message: unknown, rows: string, focusable: string): Promise<number> {
  return page.evaluate(
    ({ message, rows, focusable }) =>
      new Promise<number>((resolve) => {
        (globalThis as unknown as { __name?: unknown }).__name ??= (f: unknown) => f;
        const g = globalThis as unknown as Doc;
        g.addEventListener(
          'message',
          () =>
            setTimeout(() => {
              const n = g.document.querySelectorAll(rows).length;
              const first = g.document.querySelectorAll(focusable)[0];
              first?.focus();
              first?.dispatchEvent(new g.KeyboardEvent('keydown', { key: 'End', bubbles: true }));
              resolve(n);
            }, 0),
          { once: true },
        );
        g.postMessage(message, '*');
      }),
    { message, rows, focusable },
  );
}

async function until(page: Page, sel: string, n: number): Promise<void> {
  await page.waitForFunction(
    ({ sel, n }) => (globalThis as unknown as Doc).document.querySelectorAll(sel).length === n,
    { sel, n },
    { timeout: 10_000 },
  );
}

const activeKey = (page: Page, attr: string): Promise<string | null | undefined> =>
  page.evaluate((attr) => (globalThis as unknown as Doc).document.activeElement?.getAttribute(attr), attr);

void test('500 video tasks: the first screen mounts at once, every card follows, End reaches the last, a search starts over', async () => {
  const g = await openGallery(browser());
  const tasks = Array.from({ length: 500 }, (_, i) =>
    task({ key: `t${i}`, prompt: i % 10 === 0 ? `a lighthouse, take ${i}` : `a boat, take ${i}` }),
  );
  const first = await postThenEnd(g.page, { type: 'gallery/state', tasks }, 'ul.tasks > li', 'li.task');
  assert.ok(first > 0 && first < 500, `the first frame mounted part of the list (${first} of 500)`);
  await g.page.waitForFunction(
    () => (globalThis as unknown as Doc).document.activeElement?.getAttribute('data-key') === 't499',
    undefined,
    { timeout: 10_000 },
  );
  assert.equal(await activeKey(g.page, 'data-key'), 't499', 'End focused the last task');
  await until(g.page, 'ul.tasks > li', 500);
  await g.page.locator('input.search').fill('lighthouse');
  await until(g.page, 'ul.tasks > li', 50);
  const keys = await g.page.locator('ul.tasks > li').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-key')));
  assert.deepEqual(
    keys,
    Array.from({ length: 50 }, (_, i) => `t${i * 10}`),
    'the matches, in order',
  );
  await g.page.locator('input.search').fill('');
  await until(g.page, 'ul.tasks > li', 500);
  await g.page.context().close();
});

void test('200 conversations: the history panel mounts its first screen at once, every row follows, End reaches the last', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const entries: HistoryEntry[] = Array.from({ length: 200 }, (_, i) => ({
    id: `c${i}`,
    title: `Conversation ${i}`,
    updatedAt: 1_700_000_000_000 - i * 60_000,
    messageCount: 2,
  }));
  await h.page.locator('button[aria-label="History"]').click();
  await h.page.locator('.history-list').waitFor();
  const first = await postThenEnd(
    h.page,
    { type: 'history/list', activeId: 'c0', entries },
    '.history-list li',
    '.history-open',
  );
  assert.ok(first > 0 && first < 200, `the first frame mounted part of the list (${first} of 200)`);
  await h.page.waitForFunction(
    () =>
      (globalThis as unknown as Doc).document.activeElement
        ?.getAttribute('aria-label')
        ?.endsWith('Conversation 199') === true,
    undefined,
    { timeout: 10_000 },
  );
  await until(h.page, '.history-list li', 200);
  const titles = await h.page.locator('.history-open').evaluateAll((bs) => bs.map((b) => b.textContent));
  assert.deepEqual(
    titles,
    entries.map((e) => e.title),
    'every conversation, in order',
  );
  await h.page.context().close();
});
