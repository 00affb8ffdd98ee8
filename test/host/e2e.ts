// Runs the e2e journeys (`test/e2e/*.e2e.ts`, each exporting `journeys`): every journey gets its
// own code-server (fresh user data) and browser context (fresh SecretStorage), opens the
// workbench with the development extension loaded and drives it like a user.
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Journey } from '../e2e/journey';
import { Workbench } from '../e2e/workbench';
import { newPage, resultsDir, screenshot } from './browser';
import { startCodeServer } from './codeServer';
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

/**
 * Runs the journeys whose name matches `grep` (all when undefined); never throws. A journey that
 * fails is run once more (`retries`) in a fresh code-server: one that then passes counts as
 * passed and is listed as flaky, by name, with its first failure. `gateways` holds one local
 * gateway per worker: the workers take journeys from one queue, each against its own gateway, so
 * one journey's injected faults and counters never reach another's.
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
  const together = journeys.filter((j) => !j.journey.alone);
  const alone = journeys.filter((j) => j.journey.alone);
  let queue = together;
  const worker = async (gw: HostGateway): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { file, journey } = next;
      let firstError: string | undefined;
      for (let attempt = 0; attempt <= retries; attempt++) {
        const error = await runJourney(install, gw, browser, file, journey, attempt);
        if (error === undefined) {
          passed++;
          if (firstError !== undefined) flaky.push(`${journey.name} (${file}): ${firstError}`);
          break;
        }
        firstError ??= error;
        if (attempt === retries) {
          failed++;
          failures.push(`${journey.name} (${file}): ${error}`);
        } else {
          process.stdout.write(`    (running ${journey.name} once more)\n`);
        }
      }
    }
  };
  await Promise.all(gateways.map(worker));
  queue = alone;
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

/** One attempt at a journey in its own code-server; resolves to the first line of its error, if any. */
async function runJourney(
  install: HostInstall,
  gw: HostGateway,
  browser: Browser,
  file: string,
  journey: Journey,
  attempt: number,
): Promise<string | undefined> {
  const t0 = Date.now();
  // Where a journey's time goes, printed with its result: start (code-server up), ready (page
  // load, then to wb.ready), steps (the journey itself), stop (browser context and code-server down).
  const phases: [string, number][] = [];
  let mark = t0;
  const phase = (name: string): void => {
    const now = Date.now();
    phases.push([name, now - mark]);
    mark = now;
  };
  const timing = (): string => phases.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)}`).join(', ');
  let outcome: string | undefined;
  const slug = `e2e-${journey.name}`.replace(/[^\w.-]+/g, '-').slice(0, 80) + (attempt ? `-retry${attempt}` : '');
  // Each journey starts from a clean gateway: no fault, no recorded request of an earlier one.
  for (const g of [gw, gw.second]) {
    g.clearFaults();
    g.resetCounts();
  }
  let cs: Awaited<ReturnType<typeof startCodeServer>> | undefined;
  let page: Awaited<ReturnType<typeof newPage>> | undefined;
  try {
    cs = await startCodeServer({
      install,
      logFile: join(resultsDir, `${slug}-code-server.log`),
      label: 'e2e',
      settings: journey.settings?.(gw) ?? {},
      ...(journey.userData
        ? { userData: typeof journey.userData === 'function' ? journey.userData(gw) : journey.userData }
        : {}),
    });
    phase('start');
    for (const [rel, contents] of Object.entries(journey.files ?? {})) {
      const p = join(cs.workspace, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, contents);
    }
    page = await newPage(browser);
    const p = page;
    const consoleLog = join(resultsDir, `${slug}-console.log`);
    writeFileSync(consoleLog, '');
    // The workbench's console carries the extension host's log too: kept for diagnosing failures.
    p.on('console', (m) => appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
    const wb = new Workbench(p);
    await p.goto(cs.workbenchUrl([['extensionDevelopmentPath', cs.remoteUri(projectRoot)]]), { timeout: 180_000 });
    phase('load');
    await wb.ready(journey.readyCommand);
    phase('ready');
    await journey.run({ page: p, wb, gw, cs, shot: async (name) => void (await screenshot(p, name)) });
    phase('steps');
    return undefined;
  } catch (e) {
    phase('failed');
    const shot = page ? await screenshot(page, `${slug}-failure`) : undefined;
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    outcome = `${msg.replace(/^/gm, '      ')}\n${shot ? `      screenshot: ${shot}\n` : ''}`;
    return (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 200) ?? '';
  } finally {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await cs?.stop();
    phase('stop');
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    process.stdout.write(
      `  ${outcome === undefined ? '✔' : '✘'} ${journey.name} (${file}, ${secs}s: ${timing()})\n${outcome ?? ''}`,
    );
  }
}
