/**
 * Cost of the chat webview's message log as it grows to 2,000 messages (issue 25 item 5; the
 * streaming fast path is measured by webview-render.bench.ts). Four figures; nothing about time
 * is asserted:
 *
 * 1. Opening a stored 1,000-turn conversation: answers from the local gateway (through the real
 *    client), saved and loaded back through the chat store, then sent to the real
 *    `dist/webview.js` in headless Chromium as the host does (`chat/conversation`). Goal: first
 *    screen ≤ 200 ms. Only the newest three screens or so are mounted (models/logWindow.ts): the
 *    bench says how many rows.
 * 2. One message update (`chat/message` replacing a finished answer) in a 2,000-message log
 *    against the same in a 5-message log, measured in the same run. Goal: ≤ 1.5x.
 * 3. Send: a new question and the start of its answer appended, 2,000 against 5 messages.
 * 4. Scroll: the log from its end to its top and back, to the second frame after, likewise
 *    (reaching the top mounts the next earlier slice, which is counted).
 * 5. Every earlier message mounted from the button, and an update then: no goal, for the record.
 *
 * Time counted: the message handler, the microtasks it queues, the animation-frame callbacks it
 * schedules, and the style/layout it causes (forced, so it is counted).
 */
import { chromium } from 'playwright-core';
import { ConversationStore } from '../src/chat/history/core/store';
import { MemoryStorage } from '../test/support/memoryStorage';
import type { AssistantMessage, ChatMessage, Conversation, HostMessage } from '../src/shared/protocol';
import { startGateway } from '../test/gateway/server';
import { windowStart } from '../webview/chat/models/logWindow';
import { browserPath, CHROMIUM_ARGS } from '../test/support/browserPath';
import { DEFAULT_PARAMS, openHarness, snapshot, type Harness, type PageGlobal } from '../test/webview/harness';
import { conversationOfTurns, gatewayAnswers } from './support/conversation';
import { median, percentile } from './support/stats';

const TURNS = 1000;
const OPEN_RUNS = 9;
const UPDATES = 60;
const SENDS = 25;
const SCROLLS = 20;

/** Where one measured message's time went, in ms. */
interface Phases {
  handler: number;
  microtasks: number;
  layout: number;
  frame: number;
}
interface BenchGlobal extends PageGlobal {
  __measure(data: unknown): Promise<number>;
  __phases: Phases[];
  __frames: number[];
  __framesOn: boolean;
  __tick(): void;
}

async function answers(): Promise<string[]> {
  const gw = await startGateway();
  try {
    return await gatewayAnswers(gw);
  } finally {
    await gw.close();
  }
}

function conversation(turns: number, texts: string[]): Conversation {
  return conversationOfTurns(turns, (t) => texts[t % texts.length] ?? '');
}

async function stored(c: Conversation): Promise<Conversation> {
  const store = new ConversationStore(new MemoryStorage());
  await store.save(c);
  const back = store.load(c.id);
  if (!back) throw new Error('the stored conversation did not load');
  return back;
}

const open = (conversation: Conversation): HostMessage => ({
  type: 'chat/conversation',
  conversation,
  defaults: DEFAULT_PARAMS,
  defaultModel: 'gw-chat',
  defaultSystemPrompt: '',
});

async function instrument(h: Harness): Promise<void> {
  await h.page.evaluate(() => {
    const g = globalThis as unknown as BenchGlobal & { dispatchEvent(e: unknown): boolean };
    const raf = g.requestAnimationFrame.bind(g);
    let rafMs = 0;
    g.requestAnimationFrame = (cb: () => void) =>
      raf(() => {
        const s = performance.now();
        cb();
        rafMs += performance.now() - s;
      });
    const doc = g.document as unknown as { body: { offsetHeight: number } };
    g.__phases = [];
    g.__measure = async (data: unknown) => {
      rafMs = 0;
      const s = performance.now();
      g.dispatchEvent(new MessageEvent('message', { data }));
      const handler = performance.now() - s;
      // A MessageChannel task runs right after the microtasks, without setTimeout's clamping.
      // (Typed by hand: this file is type-checked with node's lib, not the DOM's.)
      await new Promise<void>((r) => {
        const ch = new MessageChannel() as unknown as {
          port1: { onmessage: () => void };
          port2: { postMessage(v: unknown): void };
        };
        ch.port1.onmessage = () => r();
        ch.port2.postMessage(0);
      });
      const w = performance.now();
      void doc.body.offsetHeight;
      const layout = performance.now() - w;
      // Frame callbacks it scheduled (scrolling), and the layout they cause.
      await new Promise<void>((r) => raf(() => r()));
      const l = performance.now();
      void doc.body.offsetHeight;
      const phases = { handler, microtasks: w - s - handler, layout, frame: rafMs + (performance.now() - l) };
      g.__phases.push(phases);
      return phases.handler + phases.microtasks + phases.layout + phases.frame;
    };
  });
}

async function main(): Promise<void> {
  const texts = await answers();
  const big = await stored(conversation(TURNS, texts));
  const browser = await chromium.launch({
    executablePath: browserPath('bench'),
    headless: true,
    args: [...CHROMIUM_ARGS, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
  });

  // 1. Open a stored 1,000-turn conversation (a fresh page each run: nothing is warm but the bundle).
  const opens: number[] = [];
  let mounted = 0;
  for (let i = 0; i < OPEN_RUNS; i++) {
    const h = await openHarness(browser);
    await h.send(snapshot());
    await instrument(h);
    opens.push(await h.page.evaluate((m) => (globalThis as unknown as BenchGlobal).__measure(m), open(big)));
    mounted = await h.page.locator('article.msg').count();
    await h.page.context().close();
  }
  console.log(
    `open a stored ${TURNS}-turn conversation (${big.messages.length} messages, ${JSON.stringify(big).length} characters):`,
  );
  console.log(
    `  first screen: median ${median(opens).toFixed(1)} ms of ${OPEN_RUNS} runs (${opens.map((x) => x.toFixed(1)).join(', ')}); goal ≤ 200 ms`,
  );
  console.log(
    `  mounted: the newest ${mounted} of ${big.messages.length} messages (earlier ones as the user scrolls up to them)`,
  );

  // 2. One message update in a 5-message log and in a 500-message log: two pages, updated in
  // turn, so load from elsewhere on the machine falls on both alike.
  const page = async (messages: number) => {
    const c = conversation(Math.ceil(messages / 2), texts);
    c.messages = c.messages.slice(0, messages);
    const h = await openHarness(browser);
    await h.send(snapshot());
    await h.send(open(c));
    // A long log mounts its newest screenfuls (the window); a short one all of it.
    const shown = c.messages.length - windowStart(c.messages);
    while ((await h.page.locator('article.msg').count()) < shown) await h.page.waitForTimeout(20);
    await instrument(h);
    const last = c.messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1);
    if (!last) throw new Error('no answer to update');
    return { h, last };
  };
  const small = await page(5);
  const large = await page(TURNS * 2);
  /** One message update on each page in turn: the medians after the JIT warmed up. */
  const updates = async (runs: number) => {
    const times = { small: [] as number[], large: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const [name, p] of [
        ['small', small],
        ['large', large],
      ] as const) {
        const message: ChatMessage = { ...p.last, content: `${texts[i % texts.length] ?? ''}\n\nRevision ${i}.` };
        times[name].push(
          await p.h.page.evaluate((m) => (globalThis as unknown as BenchGlobal).__measure(m), {
            type: 'chat/message',
            requestId: 'r1',
            message,
          } satisfies HostMessage),
        );
      }
    }
    return [median(times.small.slice(10)), median(times.large.slice(10))] as const;
  };
  const [s5, s500] = await updates(UPDATES);
  console.log(
    `one message update (chat/message replacing the last answer), median of ${UPDATES - 10}, the two logs updated in turn:`,
  );
  console.log(
    `  5-message log ${s5.toFixed(2)} ms, ${TURNS * 2}-message log ${s500.toFixed(2)} ms, ratio ${(s500 / s5).toFixed(2)}x; goal ≤ 1.5x`,
  );
  for (const [name, p] of [
    ['5', small],
    [String(TURNS * 2), large],
  ] as const) {
    const phases = (await p.h.page.evaluate(() => (globalThis as unknown as BenchGlobal).__phases)).slice(10);
    const part = (k: keyof Phases) => median(phases.map((x) => x[k])).toFixed(2);
    console.log(
      `    ${name.padStart(3)}-message log, medians: handler and render ${part('handler')} ms, microtasks ${part('microtasks')} ms, layout ${part('layout')} ms, frame ${part('frame')} ms`,
    );
  }

  // 3. Send: a new question and its first answer text appended to each log, in turn.
  const sends = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < SENDS; i++) {
    for (const [name, p] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const question: ChatMessage = {
        id: `sent-u${i}`,
        role: 'user',
        text: `follow-up ${i}`,
        images: [],
        contexts: [],
        createdAt: 10_000 + i,
      };
      const answer: ChatMessage = { ...p.last, id: `sent-a${i}`, content: 'The first words', status: 'streaming' };
      sends[name].push(
        await p.h.page.evaluate(
          async (ms) => {
            const g = globalThis as unknown as BenchGlobal;
            return (await g.__measure(ms[0])) + (await g.__measure(ms[1]));
          },
          [
            { type: 'chat/message', requestId: `s${i}`, message: question },
            { type: 'chat/message', requestId: `s${i}`, message: answer },
          ] satisfies HostMessage[],
        ),
      );
    }
  }
  const [send5, sendBig] = [median(sends.small.slice(5)), median(sends.large.slice(5))];
  console.log(
    `send (a question and the start of its answer appended), median of ${SENDS - 5}: 5-message log ${send5.toFixed(2)} ms, ${TURNS * 2}-message log ${sendBig.toFixed(2)} ms, ratio ${(sendBig / send5).toFixed(2)}x`,
  );

  // 4. Scroll: from the end to the top of each log and back, to the frame that shows it.
  const scrolls = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < SCROLLS; i++) {
    for (const [name, p] of [
      ['small', small],
      ['large', large],
    ] as const) {
      scrolls[name].push(
        await p.h.page.evaluate(
          (top) =>
            new Promise<number>((resolve) => {
              const g = globalThis as unknown as BenchGlobal;
              const log = g.document.querySelector('.log') as unknown as { scrollTop: number; scrollHeight: number };
              const s = performance.now();
              log.scrollTop = top ? 0 : log.scrollHeight;
              g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve(performance.now() - s)));
            }),
          i % 2 === 0,
        ),
      );
    }
  }
  const [scroll5, scrollBig] = [median(scrolls.small), median(scrolls.large)];
  console.log(
    `scroll end <-> top, to the second frame after, median of ${SCROLLS}: 5-message log ${scroll5.toFixed(2)} ms, ${TURNS * 2}-message log ${scrollBig.toFixed(2)} ms, ratio ${(scrollBig / scroll5).toFixed(2)}x`,
  );
  // 5. The user asked for every earlier message (the button above the window): how long until all
  // are mounted (a step per frame), then an update with all of them mounted.
  // Every frame's length while they mount: the page answers the user between steps.
  await large.h.page.evaluate(() => {
    const g = globalThis as unknown as BenchGlobal;
    g.__frames = [];
    g.__framesOn = true;
    let last = performance.now();
    // A property, not a named const: tsx would wrap a named function in a helper the page lacks.
    g.__tick = () => {
      const now = performance.now();
      g.__frames.push(now - last);
      last = now;
      if (g.__framesOn) g.requestAnimationFrame(g.__tick);
    };
    g.requestAnimationFrame(g.__tick);
  });
  const t0 = Date.now();
  // By keyboard: focusing the button scrolls it into view, which mounts a slice that moves it
  // up under a pointer; the focus stays on it (MessageList.tsx).
  await large.h.page.getByRole('button', { name: /earlier messages/ }).focus();
  await large.h.page.keyboard.press('Enter');
  while ((await large.h.page.locator('article.msg').count()) < TURNS * 2 + 2 * SENDS)
    await large.h.page.waitForTimeout(5);
  const all = Date.now() - t0;
  const frames = await large.h.page.evaluate(() => {
    const g = globalThis as unknown as BenchGlobal;
    g.__framesOn = false;
    return g.__frames;
  });
  const framesLine = `  frames while they mounted: ${frames.length}, longest ${Math.max(0, ...frames).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms, median ${median(frames).toFixed(1)} ms (the page takes input between frames)`;
  const [a5, aBig] = await updates(40);
  console.log(
    `every earlier message mounted from the button: ${all} ms wall; then one message update (that answer is off screen now), median of 30: 5-message log ${a5.toFixed(2)} ms, every message mounted ${aBig.toFixed(2)} ms, ratio ${(aBig / a5).toFixed(2)}x (no goal: the user asked for the whole log)`,
  );
  console.log(framesLine);
  await browser.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
