// The `host` stage of `npm test`: a real VS Code (code-server) with the integration suite in its
// extension host, then the e2e journeys in headless Chromium. Prints `host: N passed, M failed`
// and exits non-zero on any failure. Expects `npm run build` to have run (scripts/test.mjs does).
// `--only integration|e2e` runs one half; `--grep TEXT` filters e2e journeys and mocha tests.
import { launchBrowser } from './browser';
import { cleanupAll } from './cleanup';
import { e2eWorkers, runE2e } from './e2e';
import { startHostGateway } from './gateway';
import { runIntegration, type StageResult } from './integration';
import { ensureHost } from './install';
import { ensureSystemPackages, missingHostTestPackages } from '../../scripts/ensureSetup.mjs';
import { keyScanReport, scanForKeys, scanTree } from './keyScan';
import { resultsDir } from './browser';
import { appendFileSync, readFileSync } from 'node:fs';

/**
 * CPU seconds of this process (the gateways run in it) and of its ended children (code-server,
 * Chromium), from /proc/self/stat; NaN off Linux.
 */
function cpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return (f[11]! + f[12]! + f[13]! + f[14]!) / 100;
  } catch {
    return NaN;
  }
}

/** Adds a line to the stage-time table scripts/test.mjs and .ci/run print ($GWS_STAGE_TIMES). */
function recordTime(name: string, t0: number, cpu0: number): void {
  const file = process.env.GWS_STAGE_TIMES;
  const cpu = cpuSeconds() - cpu0;
  if (file)
    appendFileSync(
      file,
      `${name}\t${((Date.now() - t0) / 1000).toFixed(1)}\t${Number.isFinite(cpu) ? cpu.toFixed(0) : ''}\n`,
    );
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const only = arg('--only');
  const grep = arg('--grep');
  if (grep) process.env.GWS_TEST_GREP = grep;
  // How often a failed test is run again before it counts as failed (0 for none); inherited by
  // code-server's extension host, where the integration suite reads it.
  const retries = Number(arg('--retries') ?? process.env.GWS_TEST_RETRIES ?? '1');
  if (!Number.isInteger(retries) || retries < 0)
    throw new Error(`--retries must be a whole number of 0 or more, not ${String(arg('--retries'))}`);
  process.env.GWS_TEST_RETRIES = String(retries);
  const t0 = Date.now();
  const secs = (): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const c0 = cpuSeconds();
  const install = await ensureHost();
  recordTime('  host: code-server install', t0, c0);
  // The proxy suite's tinyproxy: apt-get as root on Debian/Ubuntu, else a stop with the command.
  if (!only || only === 'integration') ensureSystemPackages(missingHostTestPackages(), 'host stage');
  process.stdout.write(`host: code-server ready (${secs()})\n`);
  // Fast video steps keep journeys short while still showing queued -> percent -> done.
  const gw = await startHostGateway({ videoSteps: 4, videoStepMs: 1500 });
  // The key scan (keyScan.ts) looks for every key the gateway accepts or knows.
  scanForKeys({
    ...gw.keys,
    ...Object.fromEntries(Object.entries(gw.second.keys).map(([k, v]) => [`second ${k}`, v])),
  });
  const browser = await launchBrowser();
  const wantIntegration = !only || only === 'integration';
  const wantE2e = !only || only === 'e2e';
  // One after the other by default: side by side (GWS_HOST_PARALLEL=1) the clean-clone run kept
  // the 2 cores 99% busy and the integration suite passed its 900 s limit, so it saves no time
  // on this machine. One after the other, e2e's first worker uses integration's gateway.
  const together = wantIntegration && wantE2e && process.env.GWS_HOST_PARALLEL === '1';
  const integration = async (): Promise<StageResult> => {
    process.stdout.write('host: integration (extension host)\n');
    const t1 = Date.now();
    const c1 = cpuSeconds();
    const r = await runIntegration(install, gw, browser);
    recordTime('  host: integration', t1, c1);
    process.stdout.write(`host: integration done (${secs()})\n`);
    return r;
  };
  const e2e = async (): Promise<StageResult> => {
    const t2 = Date.now();
    const c2 = cpuSeconds();
    // Each worker its own gateway, so one journey's faults and counters never reach another's;
    // one after the other, the first reuses the integration suite's.
    const gateways = together ? [] : [gw];
    while (gateways.length < e2eWorkers()) {
      const more = await startHostGateway({ videoSteps: 4, videoStepMs: 1500 });
      scanForKeys({ ...more.keys });
      gateways.push(more);
    }
    process.stdout.write(`host: e2e (Playwright), ${gateways.length} journey(s) at a time\n`);
    const r = await runE2e(install, gateways, browser, grep ? new RegExp(grep, 'i') : undefined, retries);
    recordTime(together ? '  host: e2e (beside integration)' : '  host: e2e', t2, c2);
    process.stdout.write(`host: e2e done (${secs()})\n`);
    return r;
  };
  const results: [string, StageResult][] = [];
  if (together) {
    const [ri, re] = await Promise.all([integration(), e2e()]);
    results.push(['integration', ri], ['e2e', re]);
  } else {
    if (wantIntegration) results.push(['integration', await integration()]);
    if (wantE2e) results.push(['e2e', await e2e()]);
  }
  // Every code-server folder was scanned when it stopped; the stage's own logs are scanned now.
  scanTree(resultsDir, 'test-results');
  const scan = keyScanReport();
  if (scan.ran)
    results.push([
      'key scan',
      scan.ok ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, failures: scan.lines.slice(0, -1) },
    ]);
  for (const l of scan.lines.slice(-1)) process.stdout.write(`host: ${l}\n`);
  let passed = 0;
  let failed = 0;
  for (const [name, r] of results) {
    passed += r.passed;
    failed += r.failed;
    process.stdout.write(`host ${name}: ${r.passed} passed, ${r.failed} failed${r.error ? ` (${r.error})` : ''}\n`);
    for (const f of r.failures ?? []) process.stdout.write(`  ✘ ${f}\n`);
    for (const f of r.flaky ?? []) process.stdout.write(`  flaky (failed once, then passed): ${f}\n`);
  }
  process.stdout.write(`host: ${passed} passed, ${failed} failed\n`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

void main()
  .catch((e: unknown) => {
    process.stderr.write(`host stage failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.stdout.write('host: 0 passed, 1 failed\n');
    return 1;
  })
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  });
