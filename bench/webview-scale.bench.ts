/**
 * Lists that grow with use, in the real page bundles in headless Chromium (issue 25 item 5):
 * - the chat's history panel with 200 stored conversations: from the History click (the host's
 *   answer delivered at once) to the frame whose screen is full of rows, and to the frame in which
 *   every row is in the DOM, cold (the panels' chunk loads on first use) and warm; goal <= 100 ms
 *   to a full screen;
 * - the video gallery with 500 tasks: from the host's state message to a full screen and to every
 *   card in the DOM, and a search typed into its filter to the frame that shows only matches;
 *   goals <= 200 ms and <= 50 ms to a full screen.
 * Each is printed against a baseline of 10 rows measured in the same run (the ratio says what
 * the list's length costs). Medians of 5 runs, fresh page each. Asserts nothing about time.
 */
import { chromium, type Page } from 'playwright-core';
import { browserPath, CHROMIUM_ARGS } from '../test/support/browserPath';
import { openHarness, snapshot } from '../test/webview/harness';
import { median } from './support/stats';
import { openGallery, task } from '../test/webview/galleryHarness';
import type { HistoryEntry } from '../src/shared/protocol';

const RUNS = 5;

interface ScaleGlobal {
  document: { querySelectorAll(sel: string): { length: number }; querySelector(sel: string): unknown };
  requestAnimationFrame(cb: () => void): void;
  innerHeight: number;
  postMessage(m: unknown, origin: string): void;
  performance: { now(): number };
}

/**
 * In the page: runs `start`, then resolves with the ms until the first frame whose screen is full
 * (the rows reach below the window's bottom, or all `n` are in) and until the frame where `sel`
 * counts all `n` rows (long lists mount in steps: webview/common/revealed.ts).
 */
function timeUntil(
  page: Page,
  kind: 'history' | 'gallery' | 'filter',
  n: number,
  payload: unknown,
): Promise<{ screen: number; all: number }> {
  return page.evaluate(
    ({ kind, n, payload }) =>
      new Promise<{ screen: number; all: number }>((resolve, reject) => {
        // tsx names the page-side arrow functions with its own helper, absent in the page.
        (globalThis as unknown as { __name?: unknown }).__name ??= (f: unknown) => f;
        const g = globalThis as unknown as ScaleGlobal;
        const sel = kind === 'history' ? '.history-list li' : 'ul.tasks > li';
        const t0 = g.performance.now();
        if (kind === 'history') {
          (g.document.querySelector('button[aria-label="History"]') as { click(): void }).click();
          g.postMessage(payload, '*');
        } else if (kind === 'gallery') {
          g.postMessage(payload, '*');
        } else {
          const input = g.document.querySelector('input.search') as {
            value: string;
            dispatchEvent(e: unknown): void;
          };
          input.value = payload as string;
          input.dispatchEvent(
            new (globalThis as unknown as { Event: new (t: string, o: object) => unknown }).Event('input', {
              bubbles: true,
            }),
          );
        }
        let screen: number | undefined;
        const check = (): void => {
          const rows = g.document.querySelectorAll(sel) as unknown as {
            length: number;
            [i: number]: { getBoundingClientRect(): { top: number } };
          };
          const last = rows.length > 0 ? rows[rows.length - 1] : undefined;
          // A search's screen counts once the rows that do not match are gone.
          const full =
            rows.length === n ||
            (rows.length < n && last !== undefined && last.getBoundingClientRect().top > g.innerHeight);
          if (full) screen ??= g.performance.now() - t0;
          if (rows.length === n) return resolve({ screen: screen ?? NaN, all: g.performance.now() - t0 });
          if (g.performance.now() - t0 > 20_000) return reject(new Error(`${sel}: never ${n} rows`));
          g.requestAnimationFrame(check);
        };
        g.requestAnimationFrame(check);
      }),
    { kind, n, payload },
  );
}

const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
type Timed = { screen: number; all: number };
/** The full-screen figure, then the every-row one. */
const both = (xs: Timed[]): string =>
  `full screen ${fmt(xs.map((x) => x.screen))}, all rows ${fmt(xs.map((x) => x.all))}`;
const met = (xs: Timed[], goal: number): string => (median(xs.map((x) => x.screen)) <= goal ? 'met' : 'missed');

function entries(n: number): HistoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    title: `Conversation ${i} about parsing, lexing and the tree`,
    updatedAt: 1_700_000_000_000 - i * 60_000,
    messageCount: 2 + (i % 40),
  }));
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: browserPath('bench'), args: CHROMIUM_ARGS, headless: true });
  try {
    for (const n of [10, 200]) {
      const cold: Timed[] = [];
      const warm: Timed[] = [];
      for (let r = 0; r < RUNS; r++) {
        const h = await openHarness(browser);
        await h.send(snapshot());
        const list = { type: 'history/list', activeId: 'c0', entries: entries(n) };
        cold.push(await timeUntil(h.page, 'history', n, list));
        await h.page.keyboard.press('Escape');
        await h.frames();
        warm.push(await timeUntil(h.page, 'history', n, list));
        await h.page.context().close();
      }
      console.log(`history panel, ${n} conversations: cold ${both(cold)}; warm ${both(warm)}`);
      if (n === 200) console.log(`  goal <= 100 ms to a full screen: cold ${met(cold, 100)}, warm ${met(warm, 100)}`);
    }
    const base: Record<string, number> = {};
    for (const n of [10, 500]) {
      const open: Timed[] = [];
      const filter: Timed[] = [];
      const tasks = Array.from({ length: n }, (_, i) =>
        task({
          key: `t${i}`,
          prompt: i % 10 === 0 ? `a lighthouse at dusk, take ${i}` : `a boat on the sea, take ${i}`,
        }),
      );
      for (let r = 0; r < RUNS; r++) {
        const g = await openGallery(browser);
        open.push(await timeUntil(g.page, 'gallery', n, { type: 'gallery/state', tasks }));
        filter.push(await timeUntil(g.page, 'filter', n / 10, 'lighthouse'));
        await g.page.context().close();
      }
      console.log(`gallery, ${n} tasks: open ${both(open)}; search "lighthouse" (${n / 10} match) ${both(filter)}`);
      const screen = (xs: Timed[]): number => median(xs.map((x) => x.screen));
      if (n === 10) {
        base.open = screen(open);
        base.filter = screen(filter);
      } else {
        console.log(
          `  against 10 tasks (full screen): open ${(screen(open) / (base.open ?? NaN)).toFixed(1)}x, search ${(screen(filter) / (base.filter ?? NaN)).toFixed(1)}x; goals to a full screen: <= 200 ms open (${met(open, 200)}), <= 50 ms search (${met(filter, 50)})`,
        );
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
