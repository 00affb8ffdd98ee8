/**
 * Streaming render cost of the chat webview must not grow with the answer. Streams a
 * 100,000-token answer (the local gateway's `#long 100000`, read through the real client) into
 * the real `dist/webview.js` in headless Chromium, as `chat/delta` messages of TOKENS_PER_CHUNK
 * tokens, one animation frame each, and measures the main-thread time each chunk costs: the
 * message handler, the render inside requestAnimationFrame, and the style/layout it causes; and,
 * apart, the idle-time work (highlighting of closed code blocks) the page did meanwhile.
 * Prints the first and last 10% and their ratio (the baseline is the first 10% of the same
 * run; goal of issue 25: last/first <= 1.5x). Asserts nothing about time.
 */
import { GatewayClient } from '../src/api/client';
import { startGateway } from '../test/gateway/server';
import { browserPath, CHROMIUM_ARGS } from '../test/support/browserPath';
import { openHarness, snapshot, type PageGlobal } from '../test/webview/harness';
import { mean, median, percentile } from './support/stats';
import { chromium } from 'playwright-core';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 100_000);
const TOKENS_PER_CHUNK = 20;

interface BenchGlobal extends PageGlobal {
  __bench: { rafMs: number; idleMs: number };
  __runChunks(chunks: string[]): Promise<Sample[]>;
  dispatchEvent(e: unknown): boolean;
}
/** One chunk's main-thread time, in ms, by phase. */
interface Sample {
  handler: number;
  render: number;
  layout: number;
  /** Idle callbacks run since the last chunk (not part of the frame). */
  idle: number;
}

/** A second case: one huge code block (a model writing a whole file), with no blank lines. */
function bigCodeBlock(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `    total_${i} = add(total_${i - 1}, ${i})`).join('\n');
  return `#say Here is the file:\n\n\`\`\`python\ndef run():\n${body}\n    return total\n\`\`\`\n\nDone.`;
}

async function main(): Promise<void> {
  const gw = await startGateway();
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const fetchTokens = async (prompt: string): Promise<string[]> => {
    const tokens: string[] = [];
    await client.streamChat(
      { model: 'gw-chat', messages: [{ role: 'user', content: prompt }] },
      {
        onEvent: (e) => {
          if (e.type === 'text') tokens.push(e.text);
        },
      },
    );
    return tokens;
  };
  const t0 = Date.now();
  const prose = await fetchTokens(`#long ${TOKENS}`);
  console.log(`fetched ${prose.length} tokens of prose in ${Date.now() - t0} ms`);
  const code = process.env.BENCH_SKIP_CODE ? undefined : await fetchTokens(bigCodeBlock(Math.round(TOKENS / 8)));
  await gw.close();
  await scenario('A: #long prose with paragraphs and code every ~200 tokens', prose);
  if (code) await scenario('B: one code block of the whole answer (no blank lines)', code);
}

async function scenario(name: string, tokens: string[]): Promise<void> {
  console.log(`\n--- ${name}`);
  const text = tokens.join('');
  console.log(
    `answer: ${tokens.length} tokens, ${text.length} characters, ${text.split('\n').length} lines, ${text.split('```').length - 1} fence lines`,
  );

  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += TOKENS_PER_CHUNK) chunks.push(tokens.slice(i, i + TOKENS_PER_CHUNK).join(''));

  // Frames are not throttled to 60 Hz here, so the run measures work rather than vsync waits.
  const browser = await chromium.launch({
    executablePath: browserPath('bench'),
    headless: true,
    args: [...CHROMIUM_ARGS, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
  });
  const h = await openHarness(browser);
  await h.send(snapshot());
  await h.send({ type: 'chat/busy', requestId: 'r1' });
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: { id: 'a1', role: 'assistant', content: '', status: 'streaming', requestedModel: 'gw-chat', createdAt: 1 },
  });

  await h.page.evaluate(() => {
    const g = globalThis as unknown as BenchGlobal;
    g.__bench = { rafMs: 0, idleMs: 0 };
    const raf = g.requestAnimationFrame.bind(g);
    // Time every animation-frame callback the app schedules (its render work).
    g.requestAnimationFrame = (cb: () => void) =>
      raf(() => {
        const s = performance.now();
        cb();
        g.__bench.rafMs += performance.now() - s;
      });
    // Time idle-time work too (closed code blocks are highlighted there), reported apart.
    const ric = (g as unknown as { requestIdleCallback: (cb: (d: unknown) => void, o?: unknown) => number })
      .requestIdleCallback;
    (g as unknown as { requestIdleCallback: unknown }).requestIdleCallback = (cb: (d: unknown) => void, o?: unknown) =>
      ric.call(
        g,
        (d: unknown) => {
          const s = performance.now();
          cb(d);
          g.__bench.idleMs += performance.now() - s;
        },
        o,
      );
    g.__runChunks = async (batch: string[]) => {
      const out: Sample[] = [];
      const doc = g.document as unknown as { body: { offsetHeight: number } };
      for (const c of batch) {
        g.__bench.rafMs = 0;
        const idleBefore = g.__bench.idleMs;
        const s = performance.now();
        g.dispatchEvent(
          new MessageEvent('message', { data: { type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: c } }),
        );
        const handler = performance.now() - s;
        await new Promise<void>((r) => raf(() => r()));
        // Style and layout of what the frame changed, forced here so it is counted.
        const l = performance.now();
        void doc.body.offsetHeight;
        const layout = performance.now() - l;
        out.push({ handler, render: g.__bench.rafMs, layout, idle: g.__bench.idleMs - idleBefore });
      }
      return out;
    };
  });

  const samples: Sample[] = [];
  const BATCH = 200;
  const started = Date.now();
  for (let i = 0; i < chunks.length; i += BATCH) {
    const batch = chunks.slice(i, i + BATCH);
    samples.push(...(await h.page.evaluate((b) => (globalThis as unknown as BenchGlobal).__runChunks(b), batch)));
  }
  const wall = Date.now() - started;
  const doneStart = Date.now();
  await h.send({
    type: 'chat/done',
    requestId: 'r1',
    message: {
      id: 'a1',
      role: 'assistant',
      content: text,
      status: 'done',
      requestedModel: 'gw-chat',
      finishReason: 'stop',
      createdAt: 1,
    },
  });
  const doneMs = Date.now() - doneStart;
  // Let the idle-time highlighting finish before the page closes.
  await h.frames();
  const stats = await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    return {
      blocks: g.document.querySelectorAll('.md-block').length,
      codeBlocks: g.document.querySelectorAll('.codeblock').length,
    };
  });
  await browser.close();

  const times = samples.map((x) => x.handler + x.render + x.layout);
  const tenth = Math.max(1, Math.floor(times.length / 10));
  const first = times.slice(0, tenth);
  const last = times.slice(-tenth);
  const line = (name: string, a: number[]) =>
    `${name.padEnd(10)} mean ${mean(a).toFixed(3)} ms   median ${median(a).toFixed(3)} ms   p95 ${percentile(a, 95).toFixed(3)} ms   max ${Math.max(...a).toFixed(3)} ms`;
  console.log(
    `chunks: ${times.length} of ${TOKENS_PER_CHUNK} tokens; streamed in ${(wall / 1000).toFixed(1)} s wall; final DOM: ${stats.blocks} blocks, ${stats.codeBlocks} code blocks`,
  );
  console.log('main-thread time per chunk (handler + frame render + layout):');
  console.log(line('first 10%', first));
  console.log(line('last 10%', last));
  console.log(
    `ratio last/first: mean ${(mean(last) / mean(first)).toFixed(2)}x, median ${(median(last) / median(first)).toFixed(2)}x (goal: <= 1.5x)`,
  );
  const phase = (k: keyof Sample, a: Sample[]) => mean(a.map((x) => x[k])).toFixed(3);
  for (const [name, a] of [
    ['first 10%', samples.slice(0, tenth)],
    ['last 10%', samples.slice(-tenth)],
  ] as const) {
    console.log(
      `  ${name.padEnd(10)} handler ${phase('handler', a)} ms, render ${phase('render', a)} ms, layout ${phase('layout', a)} ms; idle-time work apart ${phase('idle', a)} ms`,
    );
  }
  console.log(`finishing the answer (chat/done, final highlight): ${doneMs} ms`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
