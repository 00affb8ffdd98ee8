#!/usr/bin/env node
// One entry for the whole suite: `npm test` runs every stage below in order; `npm test -- unit`
// (or webview, host) runs one. Each stage's files are found by name so that adding a test never
// needs an edit here. Exit code is non-zero when any stage fails or is skipped. On a fresh
// clone it first installs what it needs (scripts/ensureSetup.mjs); a stage that needs a browser
// is skipped, loudly, when the machine has none.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compiledPath, compileTests } from './compileTests.mjs';
import { BROWSER_ENV, ensureBrowser, ensureDependencies, ensureNode } from './ensureSetup.mjs';

const root = new URL('..', import.meta.url).pathname;
const WHO = 'npm test';
try {
  ensureNode(WHO);
  ensureDependencies(root, WHO);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}

function find(dir, suffix) {
  const out = [];
  const abs = join(root, dir);
  if (!existsSync(abs)) return out;
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...find(join(dir, name), suffix));
    else if (name.endsWith(suffix)) out.push(relative(root, p));
  }
  return out.sort();
}

function run(cmd, args, extraEnv = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
}

/**
 * The node stages run their tests transpiled once (scripts/compileTests.mjs): tsx in each test
 * process cost about 0.4 CPU-s a file. GWS_TEST_TSX=1 runs the sources through tsx instead.
 */
// One tree per run, so that a run started by a test (ensureSetup's) never replaces the files of the
// run that started it; removed at exit, and left-overs of runs that died are removed at the start.
const compiledDir = join(root, '.cache', `tests-js-${process.pid}`);
const viaTsx = process.env.GWS_TEST_TSX === '1';
let compiled = false;

function removeDeadTrees() {
  const cache = join(root, '.cache');
  for (const name of existsSync(cache) ? readdirSync(cache) : []) {
    const pid = Number(/^tests-js-(\d+)$/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(cache, name), { recursive: true, force: true });
    }
  }
}

/** Runs `files` with node's test runner, `concurrency` files at a time. */
function nodeTests(files, concurrency, extraEnv = {}) {
  const flags = ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec'];
  if (viaTsx || !compiled) return run(process.execPath, ['--import', 'tsx', ...flags, ...files], extraEnv);
  const js = files.map((f) => relative(root, compiledPath(compiledDir, f)));
  return run(process.execPath, ['--enable-source-maps', ...flags, ...js], extraEnv);
}

/** Each stage's runner; the ones in `browserStages` drive Chrome, Chromium or Edge. */
const stages = {
  // Plain-node tests of shared, api and core, through real HTTP against the local gateway. Two
  // files at a time (node's default is one on a 2-core machine): many wait on timers and sockets.
  unit: () => {
    const files = find('test/unit', '.test.ts');
    if (files.length === 0) return 0;
    return nodeTests(files, 2);
  },
  // Randomised differential streams and the fault matrix (`npm run test:faults`); `--quick`
  // runs 1,000 streams instead of 10,000 for local runs.
  faults: () => {
    const files = find('test/faults', '.test.ts');
    if (files.length === 0) return 0;
    const quick = process.argv.includes('--quick') ? { GWS_FAULTS_QUICK: '1' } : {};
    // Two at a time: the two randomised suites (about 95 s and 65 s, one core each) overlap.
    return nodeTests(files, 2, quick);
  },
  // The webview bundle in headless Chromium (needs `npm run build` first).
  webview: () => {
    const files = find('test/webview', '.test.ts');
    if (files.length === 0) return 0;
    return nodeTests(files, 1);
  },
  // llama.cpp's real llama-server (Debian sid's llama.cpp-tools in the chroot that
  // scripts/llamaChroot.sh builds) serving a tiny model the suite writes itself. Optional: without
  // the chroot it is skipped with one loud line and does not fail `npm test`, except under CI=true
  // when the build did not report a failure (GWS_LLAMA_SKIPPED unset): then it must run.
  llama: () => {
    const files = find('test/llama', '.test.ts');
    if (files.length === 0) return 0;
    waitForLlamaBuild();
    const ready =
      existsSync(join(root, '.cache/llama/ready')) && existsSync(join(root, '.cache/llama/sid/usr/bin/llama-server'));
    if (!ready) {
      const why = process.env.GWS_LLAMA_SKIPPED;
      if (process.env.CI === 'true' && !why) {
        console.error(
          `\n!!!!! ${WHO}: llama stage FAILED: CI=true, no failure reported by scripts/llamaChroot.sh, yet there is no chroot in .cache/llama !!!!!`,
        );
        return 1;
      }
      console.error(
        `\n!!!!! ${WHO}: llama stage SKIPPED (optional third-party suite, ${files.length} files not run): ${why ?? 'no sid chroot in .cache/llama; build it as root with: bash scripts/llamaChroot.sh'} !!!!!`,
      );
      llamaSkipped = why ?? 'no chroot';
      return 0;
    }
    const t0 = Date.now();
    const code = nodeTests(files, 1);
    console.log(
      `${WHO}: llama stage (model generation + server start + tests) took ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    return code;
  },
  // A real VS Code (code-server) with integration tests in the extension host and Playwright e2e.
  host: () => {
    if (!existsSync(join(root, 'test/host/run.ts'))) return 0;
    return run(process.execPath, ['--import', 'tsx', 'test/host/run.ts']);
  },
  // The .vsix as users get it (test/host/vsix.ts): packaged, installed into a fresh code-server
  // with --install-extension, one short journey. Last, after the host stage: its production build
  // replaces the development one in dist/ that the other stages run.
  vsix: () => {
    if (!existsSync(join(root, 'test/host/vsix.ts'))) return 0;
    return run(process.execPath, ['--import', 'tsx', 'test/host/vsix.ts']);
  },
};
const browserStages = ['webview', 'host', 'vsix'];

/**
 * CI builds the llama chroot beside the first stages (.ci/run): GWS_LLAMA_BUILD names the file
 * its exit code is written to. Waits for it (at most 20 minutes), prints the build's output, and
 * turns a non-zero code into the reason the stage is skipped, as a build run before would.
 */
function waitForLlamaBuild() {
  const status = process.env.GWS_LLAMA_BUILD;
  if (!status) return;
  const exitFile = `${status}.exit`;
  const deadline = Date.now() + 20 * 60_000;
  if (!existsSync(exitFile)) console.log(`${WHO}: waiting for the llama chroot build (${status}.log)`);
  while (!existsSync(exitFile) && Date.now() < deadline) spawnSync('sleep', ['1']);
  const log = existsSync(`${status}.log`) ? readFileSync(`${status}.log`, 'utf8').trimEnd() : '';
  if (log) console.log(log);
  const code = existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : 'none (still running after 20 min)';
  if (code !== '0') {
    process.env.GWS_LLAMA_SKIPPED = `scripts/llamaChroot.sh exited ${code} (3: Debian sid unreachable, 4: this machine cannot build it, 1: failed; see its output above)`;
  }
}
/** Why the optional llama stage did not run, when it did not (listed again at the end). */
let llamaSkipped;

/**
 * The CPU seconds (user + system) of this process's children that have ended, from
 * /proc/self/stat (Linux; NaN elsewhere). A stage's figure is the difference across it: its
 * processes are reaped when it ends. The host lane is reaped only when the event loop runs
 * again, after the other stages (spawnSync holds it), so its CPU never lands in theirs.
 */
function childCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * How long each stage took and the CPU it used, printed as a table at the end. Also appended to
 * the file $GWS_STAGE_TIMES names (name, seconds, CPU seconds, tab-separated), when set: .ci/run
 * prints the whole run's table from it, the host stage's two halves included (test/host/run.ts).
 */
const times = [];
function recordTime(name, t0, cpu0) {
  const secs = (Date.now() - t0) / 1000;
  const cpu = cpu0 === undefined ? NaN : childCpu() - cpu0;
  times.push([name, secs, cpu]);
  const cpuText = Number.isFinite(cpu) ? cpu.toFixed(0) : '';
  if (process.env.GWS_STAGE_TIMES)
    appendFileSync(process.env.GWS_STAGE_TIMES, `${name}\t${secs.toFixed(1)}\t${cpuText}\n`);
}
function printTimes() {
  if (!times.length) return;
  console.log(`\n${WHO}: stage times\n  ${'stage'.padEnd(40)} seconds  CPU-s`);
  for (const [name, secs, cpu] of times)
    console.log(
      `  ${name.padEnd(40)} ${secs.toFixed(0).padStart(7)} ${(Number.isFinite(cpu) ? cpu.toFixed(0) : '').padStart(6)}`,
    );
}

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(stages);
for (const name of names) {
  if (!stages[name]) {
    console.error(`unknown stage "${name}"; stages: ${Object.keys(stages).join(', ')}`);
    process.exit(2);
  }
}
let skipped = [];
const needBrowser = names.filter((n) => browserStages.includes(n));
if (needBrowser.length) {
  const browser = ensureBrowser(WHO, needBrowser);
  if (browser) {
    // The stages' child processes use this one rather than searching again.
    process.env[BROWSER_ENV] = browser;
    console.log(`${WHO}: browser for ${needBrowser.join(', ')}: ${browser}`);
  } else {
    skipped = needBrowser;
  }
}
// The host stage (code-server's install, then the integration tests and the e2e journeys) runs
// beside the other stages. Measured on 2 cores, it keeps about 0.7 of a core busy over its 15
// minutes (its time goes to waiting on a workbench), as does the webview stage: one after the
// other they left a core idle for most of the run. Its output goes to .cache/host-stage.log and
// is printed when it ends. GWS_TEST_LANES=0 runs it after the others instead.
const runnable = names.filter((n) => !skipped.includes(n));
const hostBeside = runnable.includes('host') && runnable.length > 1 && process.env.GWS_TEST_LANES !== '0';
let failed = [];
let built = false;
/** The bundles the browser and host stages run, built once before the first of them. */
function buildOnce() {
  if (built) return true;
  built = true;
  const t0 = Date.now();
  const cpu0 = childCpu();
  const code = run('npm', ['run', '--silent', 'build']);
  recordTime('npm test: build', t0, cpu0);
  if (code !== 0) failed.push('build');
  return code === 0;
}
const hostLane = hostBeside && buildOnce() ? startHostLane() : undefined;
if (!viaTsx && runnable.some((n) => n !== 'host' && n !== 'vsix')) {
  const t0 = Date.now();
  removeDeadTrees();
  process.on('exit', () => rmSync(compiledDir, { recursive: true, force: true }));
  const n = await compileTests(root, compiledDir);
  compiled = true;
  recordTime(`npm test: transpile ${n} files`, t0);
}
for (const name of runnable) {
  if ((name === 'host' && hostBeside) || name === 'vsix') continue;
  if (name !== 'unit' && name !== 'faults' && name !== 'llama' && !buildOnce()) break;
  const t0 = Date.now();
  const cpu0 = childCpu();
  const code = stages[name]();
  recordTime(`npm test: ${name}`, t0, cpu0);
  if (code !== 0) failed.push(name);
}
// The CPU the children reaped so far used: the host lane's is what comes after.
const hostCpu0 = childCpu();
if (hostLane) {
  console.log(`\n${WHO}: waiting for the host stage, which ran beside the others (log: .cache/host-stage.log)`);
  const code = await hostLane.done;
  console.log(readFileSync(hostLane.log, 'utf8').trimEnd());
  if (code !== 0) failed.push('host');
}
if (runnable.includes('vsix')) {
  const t0 = Date.now();
  const cpu0 = childCpu();
  const code = stages.vsix();
  recordTime('npm test: vsix (the packaged .vsix installed into code-server)', t0, cpu0);
  if (code !== 0) failed.push('vsix');
}

/** Starts the host stage in the background, its output to a log file. */
function startHostLane() {
  const log = join(root, '.cache', 'host-stage.log');
  mkdirSync(join(root, '.cache'), { recursive: true });
  const out = openSync(log, 'w');
  console.log(`${WHO}: the host stage starts beside the others (code-server install, integration, e2e)`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/host/run.ts'], {
    cwd: root,
    stdio: ['ignore', out, out],
  });
  const t0 = Date.now();
  const done = new Promise((resolve) =>
    child.once('close', (code, signal) => {
      recordTime('npm test: host (beside the other stages)', t0, hostCpu0);
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
  return { log, done };
}
printTimes();
const ran = names.filter((n) => !skipped.includes(n) && !failed.includes(n) && (n !== 'llama' || !llamaSkipped));
if (failed.length) console.error(`\nFAILED stages: ${failed.join(', ')}`);
if (skipped.length) {
  console.error(
    `\nSKIPPED stages (not run, so this is not a pass): ${skipped.join(', ')}; no browser was found (see the start of this output)`,
  );
  if (!failed.length && ran.length) console.error(`passed: ${ran.join(', ')}`);
}
if (llamaSkipped) console.error(`\nllama stage skipped (optional, not a failure): ${llamaSkipped}`);
if (failed.length || skipped.length) process.exit(1);
console.log(ran.length ? `\nall stages passed: ${ran.join(', ')}` : '\nno stage ran');
