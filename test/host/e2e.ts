// Runs the e2e journeys (`test/e2e/*.e2e.ts`, each exporting `journeys`) in a workbench with the
// development extension loaded, driving it like a user. A journey gets its own code-server (fresh
// user data) and browser context (fresh SecretStorage), unless it names a share group: the
// journeys of a group run in one, reset between them (test/host/e2eBench.ts).
import { mkdirSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Journey } from '../e2e/journey';
import { resultsDir, screenshot } from './browser';
import { Bench, Phases } from './e2eBench';
import type { HostGateway } from './gateway';
import type { StageResult } from './integration';
import { projectRoot, type HostInstall } from './install';

/** Finds every journey, sorted by file then by order in the file. */
export async function loadJourneys(): Promise<{ file: string; journey: Journey }[]> {
  const dir = join(projectRoot, 'test', 'e2e');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.ts'))
    .sort();
  const out: { file: string; journey: Journey }[] = [];
  for (const f of files) {
    const mod = (await import(join(dir, f))) as { journeys?: Journey[] };
    if (!Array.isArray(mod.journeys)) throw new Error(`test/e2e/${f} must export \`journeys\` (an array of Journey)`);
    for (const journey of mod.journeys) out.push({ file: f, journey });
  }
  return out;
}

/** What a worker takes from the queue: one journey in its own bench, or a share group in one. */
type Unit = { file: string; journey: Journey }[];

/**
 * The queue: each share group (in file order) as one unit, the longest first, then each other
 * journey as a unit of its own. Groups go first so that the last units, which decide when the
 * stage ends, are short.
 */
export function units(journeys: { file: string; journey: Journey }[]): Unit[] {
  const groups = new Map<string, Unit>();
  const single: Unit[] = [];
  for (const j of journeys) {
    const key = j.journey.share;
    if (key === undefined) single.push([j]);
    else groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  return [...[...groups.values()].sort((a, b) => b.length - a.length), ...single];
}

/**
 * Runs the journeys whose name matches `grep` (all when undefined); never throws. A journey that
 * fails is run once more (`retries`) in a fresh code-server: one that then passes counts as
 * passed and is listed as flaky, by name, with its first failure. `gateways` holds one local
 * gateway per worker: the workers take units (test/host/e2eBench.ts) from one queue, each against
 * its own gateway, so one journey's injected faults and counters never reach another's.
 */
export async function runE2e(
  install: HostInstall,
  gateways: HostGateway[],
  browser: Browser,
  grep?: RegExp,
  retries = 1,
): Promise<StageResult> {
  mkdirSync(resultsDir, { recursive: true });
  let journeys: { file: string; journey: Journey }[];
  try {
    journeys = (await loadJourneys()).filter((j) => !grep || grep.test(j.journey.name));
  } catch (e) {
    return { passed: 0, failed: 1, error: e instanceof Error ? e.message : String(e) };
  }
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  const flaky: string[] = [];
  const record = (file: string, journey: Journey, error: string | undefined, firstError?: string): void => {
    if (error === undefined) {
      passed++;
      if (firstError !== undefined) flaky.push(`${journey.name} (${file}): ${firstError}`);
    } else {
      failed++;
      failures.push(`${journey.name} (${file}): ${error}`);
    }
  };
  /** Runs a failed journey again, each time in a bench of its own. */
  const again = async (gw: HostGateway, file: string, journey: Journey, firstError: string): Promise<void> => {
    let error: string | undefined = firstError;
    for (let attempt = 1; attempt <= retries && error !== undefined; attempt++) {
      process.stdout.write(`    (running ${journey.name} once more, in a fresh code-server)\n`);
      const bench = new Bench();
      error = await runJourney(install, gw, browser, bench, file, journey, attempt);
      await bench.close();
    }
    record(file, journey, error, firstError);
  };
  let queue = units(journeys.filter((j) => !j.journey.alone));
  const worker = async (gw: HostGateway): Promise<void> => {
    for (let unit = queue.shift(); unit; unit = queue.shift()) {
      let bench = new Bench();
      for (const { file, journey } of unit) {
        const error = await runJourney(install, gw, browser, bench, file, journey, 0);
        if (error === undefined) {
          record(file, journey, undefined);
          continue;
        }
        // A failure may leave the shared workbench anywhere: the rest of the group gets a new one.
        await bench.close();
        bench = new Bench();
        await again(gw, file, journey, error);
      }
      await bench.close();
    }
  };
  await Promise.all(gateways.map(worker));
  queue = units(journeys.filter((j) => j.journey.alone)).flatMap((u) => u.map((j) => [j]));
  await worker(gateways[0] as HostGateway);
  return { passed, failed, failures, flaky };
}

/**
 * How many journeys run at once: `GWS_E2E_WORKERS`, else 2 on a machine with two cores or more.
 * Each worker is a code-server and a browser context; a journey mostly waits on the UI, so two
 * share two cores well.
 */
export function e2eWorkers(): number {
  const raw = process.env.GWS_E2E_WORKERS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`GWS_E2E_WORKERS must be 1 to 8, not ${raw}`);
    return n;
  }
  return availableParallelism() >= 2 ? 2 : 1;
}

/**
 * One attempt at a journey in `bench`: opened for it when it is not open yet, else reset for it
 * (test/host/e2eBench.ts); resolves to the first line of its error, if any. The caller closes
 * the bench.
 */
async function runJourney(
  install: HostInstall,
  gw: HostGateway,
  browser: Browser,
  bench: Bench,
  file: string,
  journey: Journey,
  attempt: number,
): Promise<string | undefined> {
  // Where a journey's time goes, printed with its result: start (code-server up), load (page
  // load), ready (to wb.ready), or reset (a shared bench made ready for it), then steps (the
  // journey itself).
  const phases = new Phases();
  let outcome: string | undefined;
  const slug = `e2e-${journey.name}`.replace(/[^\w.-]+/g, '-').slice(0, 80) + (attempt ? `-retry${attempt}` : '');
  const logs = {
    codeServer: join(resultsDir, `${slug}-code-server.log`),
    console: join(resultsDir, `${slug}-console.log`),
  };
  const shared = bench.journeys > 0;
  // Each journey starts from a clean gateway: no fault, no recorded request of an earlier one
  // (before its settings are made: some set the gateway up, e.g. a model's context window).
  for (const g of [gw, gw.second]) {
    g.clearFaults();
    g.resetCounts();
  }
  try {
    if (shared) {
      bench.logTo(logs.console);
      await bench.reset(journey, gw);
      phases.phase('reset');
    } else {
      await bench.open(install, gw, browser, journey, logs, phases);
    }
    bench.journeys++;
    const { cs, page, wb } = bench;
    if (!cs || !page || !wb) throw new Error('the bench did not open');
    await journey.run({ page, wb, gw, cs, shot: async (name) => void (await screenshot(page, name)) });
    phases.phase('steps');
    return undefined;
  } catch (e) {
    phases.phase('failed');
    const shot = bench.page ? await screenshot(bench.page, `${slug}-failure`) : undefined;
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    outcome = `${msg.replace(/^/gm, '      ')}\n${shot ? `      screenshot: ${shot}\n` : ''}`;
    return (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 200) ?? '';
  } finally {
    const secs = ((Date.now() - phases.t0) / 1000).toFixed(1);
    const where = shared ? `, shared workbench, journey ${bench.journeys}` : '';
    process.stdout.write(
      `  ${outcome === undefined ? '✔' : '✘'} ${journey.name} (${file}${where}, ${secs}s: ${phases.toString()})\n${outcome ?? ''}`,
    );
  }
}
