/**
 * Issue 42's soak bench: a scripted 500-step agent session on the local gateway, and what it
 * leaves behind. A step is one model request with the tool round it asks for: the parent's,
 * those of the two Explore runs it starts (`run_subagent`, on gw-mini), and the context guard's
 * summary when the conversation outgrows gw-chat's window (one compaction). Messages are queued
 * while the agent works: some follow the running tool round, some are sent as the next turn.
 *
 * Host side, in plain node: the extension host runs this same core code (ChatSession, ChatHub,
 * ToolRunner and the built-in tools, the subagent tool, the queue's state machine, the context
 * guard, the conversation store on disk); only VS Code's own parts (webviews, settings, the
 * editor) are left out (bench/support/soakHost.ts). The local gateway runs in its own process,
 * so its records do not count in the measured heap nor its work in the measured CPU time. After a
 * 10-step warm-up the heap is read after GC, then the 500 steps run, then it is read again; each
 * step is timed from its request's start to the next one's: wall time, the host thread's busy
 * time, and the host process's CPU time (every thread of it, the garbage collector's too).
 *
 * Page side: the real chat page bundle in headless Chromium replays every message the host
 * posted to it, step by step; its JS heap is read after GC at the same two points
 * (bench/support/soakPage.ts).
 *
 * Then the same session runs twice more, host side only, and each step's least time over the
 * three runs is printed beside the first run's: a full collection or the scheduler lands on
 * another step in each run, so the least time is the step's own work. Collections are listed
 * with the steps they landed in. The page side (and Playwright with it) is loaded only after the
 * host runs, so that its heap is not in the host's.
 *
 * Goals (issue 42): heap growth <= 50 MB on the host and <= 30 MB on the page; no step slower
 * than 2x the median of the first ten. Prints the figures; asserts nothing about time (machines
 * are shared), and exits 1 only when the session did not run as scripted. Needs `npm run build`
 * (dist/webview.js) and a Chromium (test/support/browserPath.ts); stops by itself (4 minutes at most).
 * SOAK_STEPS=n runs a shorter session, SOAK_RUNS=n that many runs; SOAK_DEBUG=1 prints every step's wall/busy/CPU time, =host skips the page.
 */
import { spawnSync } from 'node:child_process';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { newId } from '../src/shared/protocol';
import { question } from '../test/support/sessionHarness';
import { percentile, median } from './support/stats';
import { openSoakHost, readRecord, type Recorded, type SoakHost } from './support/soakHost';
import type { PageRun } from './support/soakPage';
import { PART_MESSAGES } from '../src/chat/history/core/parts';
import { EXPLORE_REQUESTS, QUEUED_REQUESTS, queuedText, turnEvents, turnText } from './support/soakPlan';

const STEPS = Number(process.env.SOAK_STEPS ?? 500);
/** Runs of the same session, host side only after the first (see reportLeast). */
const RUNS = Number(process.env.SOAK_RUNS ?? 3);
const WARMUP = 10;
const ROUNDS = 9;
const HOST_GOAL_MB = 50;
const PAGE_GOAL_MB = 30;
const TIME_LIMIT_MS = 4 * 60_000;

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The heap after full collections, with the timers of the last step given time to run. */
async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

interface HostRun {
  heapStart: number;
  heapEnd: number;
  /** Index of the first measured step in `starts`, and the page record's length at that point. */
  from: number;
  warmPosted: number;
  end: number;
  endBusy: number;
  endCpu: number;
  ms: number;
}

/** One user turn of the script (its events: Explore, queued messages), until the queue is idle. */
async function runTurn(h: SoakHost, t: number, rounds: number, first: number, queued: { n: number }): Promise<void> {
  const ev = turnEvents(t);
  let n = 0;
  h.onAgentRequest = () => {
    n++;
    if (n === ev.queueAtRequest || (ev.queueAtEnd && n === rounds + 1))
      h.queue.add(h.session.conversationId, queuedText(++queued.n));
  };
  await h.session.send(newId('r'), question(turnText(t, rounds, first, ev)));
  await h.queue.settled();
  h.onAgentRequest = () => undefined;
}

/** What turn `t` will ask at most, so that the session ends at exactly {@link STEPS} steps. */
function turnSize(t: number, remaining: number): { t: number; rounds: number } {
  const ev = turnEvents(t);
  const extra = ev.exploreAt !== undefined ? EXPLORE_REQUESTS : ev.queueAtEnd ? QUEUED_REQUESTS : 0;
  const planned = ev.queueAtRequest !== undefined ? ev.queueAtRequest + QUEUED_REQUESTS : ROUNDS + 1 + extra;
  // Near the end a plain turn (numbered past the events) takes what is left.
  return planned <= remaining ? { t, rounds: ROUNDS } : { t: 1000 + t, rounds: Math.min(ROUNDS, remaining - 1) };
}

async function runHost(h: SoakHost): Promise<HostRun> {
  const queued = { n: 0 };
  let round = 0;
  await runTurn(h, 0, WARMUP - 1, round, queued);
  round += WARMUP - 1;
  const heapStart = await settledHeap();
  const from = h.starts.length;
  const warmPosted = h.posted();
  const t0 = performance.now();
  for (let t = 1; h.starts.length - from < STEPS; t++) {
    const size = turnSize(t, STEPS - (h.starts.length - from));
    await runTurn(h, size.t, size.rounds, round, queued);
    round += size.rounds;
  }
  const end = performance.now();
  const endBusy = performance.eventLoopUtilization().active;
  const cpu = process.cpuUsage();
  const endCpu = (cpu.user + cpu.system) / 1000;
  const heapEnd = await settledHeap();
  return { heapStart, heapEnd, from, warmPosted, end, endBusy, endCpu, ms: end - t0 };
}

interface StepTimes {
  ms: number[];
  busy: number[];
  cpu: number[];
  kinds: string[];
  labels: string[];
  /** Each step's prompt tokens (the gateway's count). */
  prompts: number[];
}

interface GcEntry {
  at: number;
  ms: number;
  major: boolean;
}

/** What each measured step took (wall, host-busy and host CPU time) and what its tools were ('answer': none). */
function stepsOf(h: SoakHost, r: HostRun): StepTimes {
  const between = (xs: number[], last: number) => xs.slice(r.from).map((x, i) => (xs[r.from + i + 1] ?? last) - x);
  const labels = h.tools.slice(r.from).map((t) => [...new Set(t)].join('+') || 'answer');
  return {
    ms: between(h.starts, r.end),
    busy: between(h.busy, r.endBusy),
    cpu: between(h.cpu, r.endCpu),
    kinds: h.kinds.slice(r.from),
    labels,
    prompts: h.prompts.slice(r.from),
  };
}

/** Each step against the step of the first ten that ran the same tools: the slowest ratio and how many pass 2x. */
function sameKind(ms: number[], labels: string[]): { worst: number; at: number; over: number } {
  const base = new Map<string, number>();
  for (let i = 0; i < 10; i++) if (!base.has(labels[i]!)) base.set(labels[i]!, ms[i]!);
  let [worst, at, over] = [0, -1, 0];
  ms.forEach((x, i) => {
    const b = base.get(labels[i]!);
    if (b === undefined || i < 10) return;
    if (x / b > worst) [worst, at] = [x / b, i];
    if (x > 2 * b) over++;
  });
  return { worst, at, over };
}

/** The step-time lines of one measure: against the first ten, against the same kind of step, by block. */
function timeLines(name: string, ms: number[], labels: string[]): string[] {
  const t = (x: number) => `${x.toFixed(1)} ms`;
  const first = median(ms.slice(0, 10));
  const slowest = ms.reduce((a, x, i) => (x > ms[a]! ? i : a), 0);
  const ratio = ms[slowest]! / first;
  const same = sameKind(ms, labels);
  const blocks = Array.from({ length: Math.ceil(ms.length / 50) }, (_, b) => median(ms.slice(b * 50, b * 50 + 50)));
  return [
    `  ${name}: first ten median ${t(first)}; slowest #${slowest + 1} (${labels[slowest]}) ${t(ms[slowest]!)} = ${ratio.toFixed(2)}x the first ten (goal <= 2x: ${ratio <= 2 ? 'met' : 'missed'}); ${ms.filter((x) => x > 2 * first).length} steps over 2x`,
    `    against the first ten's step with the same tools: slowest #${same.at + 1} (${labels[same.at]}) ${same.worst.toFixed(2)}x; ${same.over} steps over 2x`,
    `    median by 50 steps: ${blocks.map((x) => x.toFixed(0)).join(', ')} ms; all: median ${t(median(ms))}, p90 ${t(percentile(ms, 90))}, p99 ${t(percentile(ms, 99))}`,
  ];
}

function reportHost(h: SoakHost, r: HostRun): void {
  const { ms, busy, cpu, kinds, labels } = stepsOf(h, r);
  const count = (k: string) => kinds.filter((x) => x === k).length;
  const c = h.session.shown;
  const delta = r.heapEnd - r.heapStart;
  console.log(`host (plain node, the extension host's core code): ${ms.length} steps in ${(r.ms / 1000).toFixed(1)} s`);
  console.log(
    `  heap after GC: start ${mb(r.heapStart)}, end ${mb(r.heapEnd)}, growth ${delta >= 0 ? '+' : ''}${mb(delta)} (goal <= ${HOST_GOAL_MB} MB: ${delta <= HOST_GOAL_MB * MB ? 'met' : 'missed'})`,
  );
  console.log(timeLines('step time (request start to the next)', ms, labels).join('\n'));
  console.log(
    timeLines("host thread's busy time per step (without the waits for the gateway)", busy, labels).join('\n'),
  );
  console.log(
    timeLines("host process's CPU time per step (every thread of it: GC, search workers)", cpu, labels).join('\n'),
  );
  console.log(
    `  counts: requests ${ms.length} (agent ${count('agent')}, Explore ${count('explore')}, summary ${count('summary')}); tool calls ${h.toolCalls()}; subagent runs ${h.subagentRuns()}; compactions ${count('summary')}; queued messages sent ${h.queue.sentAfterRound + h.queue.sentAsTurn} (${h.queue.sentAfterRound} after a tool round, ${h.queue.sentAsTurn} as the next turn); messages posted to the page ${h.posted()}`,
  );
  console.log(
    `  the conversation at the end: ${c.messages.length} messages (${c.compaction?.messageCount ?? 0} summarised), saved ${h.saves()} times (${h.partsWritten()} parts of ${PART_MESSAGES} messages written), now ${mb(h.storedBytes())} on disk`,
  );
  if (process.env.SOAK_DEBUG)
    console.log(
      ms
        .map((x, i) => `${i + 1}${kinds[i]![0]}:${x.toFixed(0)}/${busy[i]!.toFixed(0)}/${cpu[i]!.toFixed(0)}`)
        .join(' '),
    );
}

/** How the session strayed from its script (an answer that failed, a run or compaction missing), if it did. */
function scriptProblems(h: SoakHost, r: HostRun): string[] {
  const kinds = h.kinds.slice(r.from);
  const count = (k: string) => kinds.filter((x) => x === k).length;
  const failed = h.session.shown.messages.filter((m) => m.role === 'assistant' && m.status !== 'done');
  return [
    ...(kinds.length !== STEPS ? [`${kinds.length} steps instead of ${STEPS}`] : []),
    ...(failed.length ? [`${failed.length} answers did not end well (first: ${JSON.stringify(failed[0])})`] : []),
    ...(h.subagentRuns() !== 2 || count('explore') !== 2 * EXPLORE_REQUESTS ? ['not two Explore runs'] : []),
    ...(STEPS === 500 && count('summary') !== 1 ? [`${count('summary')} compactions instead of one`] : []),
    ...(h.queue.sentAfterRound === 0 || h.queue.sentAsTurn === 0 ? ['queued messages not sent both ways'] : []),
  ];
}

function reportPage(p: PageRun): void {
  const delta = p.heapEnd - p.heapStart;
  console.log(
    `page (dist/webview.js in headless Chromium): ${p.messages} messages replayed step by step in ${(p.replayMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  JS heap after GC: start ${mb(p.heapStart)}, end ${mb(p.heapEnd)}, growth ${delta >= 0 ? '+' : ''}${mb(delta)} (goal <= ${PAGE_GOAL_MB} MB: ${delta <= PAGE_GOAL_MB * MB ? 'met' : 'missed'}); shown at the end: ${p.articles} messages, ${p.cards} tool cards`,
  );
}

/** The garbage collections of the main thread while `run` ran: their kind and when they started. */
async function withGcLog<T>(run: () => Promise<T>): Promise<{ value: T; gcs: GcEntry[] }> {
  const gcs: GcEntry[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gcs.push({ at: e.startTime, ms: e.duration, major: kind === constants.NODE_PERFORMANCE_GC_MAJOR });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  try {
    return { value: await run(), gcs };
  } finally {
    obs.disconnect();
  }
}

/** The full collections that landed in the measured steps: in which step, and how long each paused. */
function gcLine(h: SoakHost, r: HostRun, gcs: GcEntry[]): string {
  const starts = h.starts.slice(r.from);
  const stepAt = (t: number) => starts.filter((s) => s <= t).length;
  const major = gcs.filter((g) => g.major && g.at >= starts[0]! && g.at <= r.end);
  const minor = gcs.filter((g) => !g.major && g.at >= starts[0]! && g.at <= r.end);
  const ms = (xs: GcEntry[]) => xs.reduce((a, g) => a + g.ms, 0).toFixed(0);
  return `  collections in the measured steps: ${major.length} full (${ms(major)} ms in all; ${major.map((g) => `#${stepAt(g.at)} ${g.ms.toFixed(1)} ms`).join(', ') || 'none'}), ${minor.length} young-generation (${ms(minor)} ms)`;
}

/** The same session again (host side only): what each of its steps took, to be set beside the first run's. */
async function runAgain(labels: string[]): Promise<StepTimes> {
  const h = await openSoakHost();
  try {
    const { value: r, gcs } = await withGcLog(() => runHost(h));
    console.log(gcLine(h, r, gcs));
    const t = stepsOf(h, r);
    if (t.labels.join() !== labels.join()) throw new Error('a repeated run took other steps than the first');
    return t;
  } finally {
    await h.close().catch(() => undefined);
  }
}

/** Each step's least time over the runs: its own work, without what fell on it in one run only (a collection, the scheduler). */
function leastOf(runs: StepTimes[], pick: (t: StepTimes) => number[]): number[] {
  return pick(runs[0]!).map((_, i) => Math.min(...runs.map((t) => pick(t)[i]!)));
}

/**
 * Each step's time by the size of its request. A request carries the whole context (up to ~100k
 * tokens before the compaction): written as JSON, encoded and sent each time, and counted for the
 * window. The first ten steps' requests are the smallest of the session.
 */
function bySizeLine(ms: number[], prompts: number[]): string {
  const bands = [0, 25_000, 50_000, 75_000, Number.POSITIVE_INFINITY];
  const parts = bands.slice(0, -1).map((lo, b) => {
    const xs = ms.filter((_, i) => prompts[i]! >= lo && prompts[i]! < bands[b + 1]!);
    const name = b === bands.length - 2 ? `>= ${lo / 1000}k` : `${lo / 1000}k-${bands[b + 1]! / 1000}k`;
    return xs.length
      ? `${name} tokens: median ${median(xs).toFixed(1)}, slowest ${Math.max(...xs).toFixed(1)} ms (${xs.length} steps)`
      : `${name}: none`;
  });
  return `    by the request's prompt size: ${parts.join('; ')}; the first ten's prompts ${Math.min(...prompts.slice(0, 10))}-${Math.max(...prompts.slice(0, 10))} tokens`;
}

function reportLeast(runs: StepTimes[]): void {
  const labels = runs[0]!.labels;
  console.log(
    `each step's least time over ${runs.length} runs of the same session (the first above and ${runs.length - 1} more, host side only):`,
  );
  console.log(
    timeLines(
      'step time (request start to the next)',
      leastOf(runs, (t) => t.ms),
      labels,
    ).join('\n'),
  );
  const busy = leastOf(runs, (t) => t.busy);
  console.log(timeLines("host thread's busy time per step", busy, labels).join('\n'));
  console.log(bySizeLine(busy, runs[0]!.prompts));
  console.log(
    timeLines(
      "host process's CPU time per step",
      leastOf(runs, (t) => t.cpu),
      labels,
    ).join('\n'),
  );
}

async function main(): Promise<void> {
  const h = await openSoakHost();
  const first = structuredClone(h.session.conversationMessage());
  let r: HostRun;
  let rows: Recorded[];
  const runs: StepTimes[] = [];
  try {
    const { value, gcs } = await withGcLog(() => runHost(h));
    r = value;
    reportHost(h, r);
    console.log(gcLine(h, r, gcs));
    const problems = scriptProblems(h, r);
    if (problems.length) {
      console.log(`  FAIL: the session did not run as scripted: ${problems.join('; ')}`);
      process.exitCode = 1;
    }
    runs.push(stepsOf(h, r));
    rows = readRecord(h.recordFile);
  } finally {
    await h.close().catch(() => undefined);
  }
  for (let i = 1; i < RUNS; i++) runs.push(await runAgain(runs[0]!.labels));
  if (runs.length > 1) reportLeast(runs);
  if (process.env.SOAK_DEBUG === 'host') return;
  // Loaded only now: Playwright's own heap would otherwise be part of the host's measured one.
  const { runPage } = await import('./support/soakPage');
  reportPage(await runPage(first, rows, r.warmPosted));
}

if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  // Run directly (not through `npm run bench`): again, with the collector exposed.
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
} else {
  const watchdog = setTimeout(() => {
    console.error(`agent-soak: still running after ${TIME_LIMIT_MS / 60_000} minutes; stopped`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  watchdog.unref();
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
