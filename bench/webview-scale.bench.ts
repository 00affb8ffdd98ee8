/**
 * Lists that grow with use, in the real page bundles in headless Chromium (issue 25 item 5):
 * - the chat's history panel with 200 stored conversations: from the History click (the host's
 *   answer delivered at once) to the frame in which every row is in the DOM, cold (the panels'
 *   chunk loads on first use) and warm; goal <= 100 ms;
 * - the video gallery with 500 tasks: from the host's state message to every card in the DOM,
 *   and a search typed into its filter to the frame that shows only the matches; goals <= 200 ms
 *   and <= 50 ms.
 * Each is printed against a baseline of 10 rows measured in the same run (the ratio says what
 * the list's length costs). Medians of 5 runs, fresh page each. Asserts nothing about time.
 */
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, browserPath, openHarness, snapshot } from '../test/webview/harness';
import { openGallery, task } from '../test/webview/galleryHarness';
import type { HistoryEntry } from '../src/shared/protocol';

const RUNS = 5;

interface ScaleGlobal {
  document: { querySelectorAll(sel: string): { length: number }; querySelector(sel: string): unknown };
  requestAnimationFrame(cb: () => void): void;
  postMessage(m: unknown, origin: string): void;
  performance: { now(): number };
}

/** In the page: runs `start`, then resolves with the ms until a frame where `sel` counts `n`. */
function timeUntil(page: Page, kind: 'history' | 'gallery' | 'filter', n: number, payload: unknown): Promise<number> {
  return page.evaluate(
    ({ kind, n, payload }) =>
      new Promise<number>((resolve, reject) => {
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
        const check = (): void => {
          if (g.document.querySelectorAll(sel).length === n) return resolve(g.performance.now() - t0);
          if (g.performance.now() - t0 > 20_000) return reject(new Error(`${sel}: never ${n} rows`));
          g.requestAnimationFrame(check);
        };
        g.requestAnimationFrame(check);
      }),
    { kind, n, payload },
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;

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
      const cold: number[] = [];
      const warm: number[] = [];
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
      console.log(`history panel, ${n} conversations: cold ${fmt(cold)}; warm ${fmt(warm)}`);
      if (n === 200)
        console.log(
          `  goal <= 100 ms: cold ${median(cold) <= 100 ? 'met' : 'missed'}, warm ${median(warm) <= 100 ? 'met' : 'missed'}`,
        );
    }
    const base: Record<string, number> = {};
    for (const n of [10, 500]) {
      const open: number[] = [];
      const filter: number[] = [];
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
      console.log(`gallery, ${n} tasks: open ${fmt(open)}; search "lighthouse" (${n / 10} match) ${fmt(filter)}`);
      if (n === 10) {
        base.open = median(open);
        base.filter = median(filter);
      } else {
        console.log(
          `  against 10 tasks: open ${(median(open) / (base.open ?? NaN)).toFixed(1)}x, search ${(median(filter) / (base.filter ?? NaN)).toFixed(1)}x; goals <= 200 ms open (${median(open) <= 200 ? 'met' : 'missed'}), <= 50 ms search (${median(filter) <= 50 ? 'met' : 'missed'})`,
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
