/**
 * The soak bench's page side (bench/agent-soak.bench.ts): the real chat page bundle
 * (`dist/webview.js`) in headless Chromium behind the extension's HTML and CSP
 * (test/webview/harness.ts), fed the messages the host side's ChatHub posted during its run, in
 * order, each step's messages in one go followed by two animation frames (the page renders
 * between steps as it would in VS Code). Its JS heap is read after a full GC through the
 * DevTools protocol (HeapProfiler.collectGarbage, Runtime.getHeapUsage) once the warm-up's
 * messages are in and again at the end.
 */
import { performance } from 'node:perf_hooks';
import type { CDPSession } from 'playwright-core';
import type { HostMessage } from '../../src/shared/protocol';
import type { Recorded } from './soakHost';
import { launch, openHarness, snapshot, type Harness, type PageGlobal } from '../../test/webview/harness';

export interface PageRun {
  heapStart: number;
  heapEnd: number;
  messages: number;
  /** Time the replay took (the page's work and the harness's round trips). */
  replayMs: number;
  /** What the page shows at the end: messages and tool cards in its DOM. */
  articles: number;
  cards: number;
}

/** The page's JS heap after a full collection; the harness's own copies (posts, state) are dropped first. */
async function pageHeap(h: Harness, cdp: CDPSession): Promise<number> {
  await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    g.__posted.length = 0;
    g.__state = null;
  });
  // Idle work (highlighting of closed code blocks) runs before the collection.
  await h.frames();
  await h.page.waitForTimeout(300);
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** Posts the messages of each step in turn, two frames after each step. */
async function replay(h: Harness, rows: Recorded[]): Promise<void> {
  for (let i = 0; i < rows.length;) {
    const step = rows[i]![0];
    const batch: HostMessage[] = [];
    for (; i < rows.length && rows[i]![0] === step; i++) batch.push(rows[i]![1]);
    await h.page.evaluate((ms) => {
      const g = globalThis as unknown as PageGlobal;
      for (const m of ms) g.postMessage(m, '*');
    }, batch);
    await h.frames();
  }
}

/**
 * Opens the page on the conversation the host started with (`first`: its chat/conversation
 * message), replays `rows`: the first `warm` of them, then the heap, then the rest.
 */
export async function runPage(
  first: Extract<HostMessage, { type: 'chat/conversation' }>,
  rows: Recorded[],
  warm: number,
): Promise<PageRun> {
  const browser = await launch();
  try {
    const h = await openHarness(browser);
    const cdp = await h.page.context().newCDPSession(h.page);
    await cdp.send('HeapProfiler.enable');
    await h.send(snapshot({ conversation: first.conversation, defaultModel: first.defaultModel }));
    await replay(h, rows.slice(0, warm));
    const heapStart = await pageHeap(h, cdp);
    const t0 = performance.now();
    await replay(h, rows.slice(warm));
    const replayMs = performance.now() - t0;
    const heapEnd = await pageHeap(h, cdp);
    const [articles, cards] = await h.page.evaluate(() => {
      const d = (globalThis as unknown as PageGlobal).document;
      return [d.querySelectorAll('article.msg').length, d.querySelectorAll('section.toolcard').length];
    });
    return { heapStart, heapEnd, messages: rows.length, replayMs, articles, cards };
  } finally {
    await browser.close();
  }
}
