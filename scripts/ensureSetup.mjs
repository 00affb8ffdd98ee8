// What `npm start` and `npm test` need before they can run on a fresh clone: the locked npm
// dependencies, the Debian packages the code-server install compiles against, and a browser for
// the stages that drive one. Node built-ins only: this runs before node_modules exists.
// Typed for the TypeScript callers in ensureSetup.d.mts.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Where a user names a browser; it wins over every usual path. */
export const BROWSER_ENV = 'GWS_BROWSER';

const NPM_QUIET = {
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

/** Stops with a message when Node is older than the 20 that package.json's engines asks for. */
export function ensureNode(who, version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  if (major < 20) {
    throw new Error(`${who}: Node ${version} is too old; this project needs Node 20 or newer (https://nodejs.org).`);
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why node_modules does not hold what package-lock.json locks, or undefined when it does.
 * Compares contents, not times: git sets a file's mtime when it writes it (clone, checkout,
 * rebase), so a newer package-lock.json says little, while the hidden lockfile npm writes into
 * node_modules records exactly what was installed. Each locked package's folder is checked too,
 * so a package deleted by hand is noticed. Packages npm may leave out (optional ones for other
 * platforms) may be absent.
 */
export function dependencyProblem(root, exists = existsSync) {
  const lock = readJson(join(root, 'package-lock.json'));
  if (!lock?.packages) return 'package-lock.json is missing or unreadable';
  if (!exists(join(root, 'node_modules'))) return 'node_modules is missing';
  const installed = readJson(join(root, 'node_modules', '.package-lock.json'));
  if (!installed?.packages) return 'node_modules was not installed by npm from package-lock.json';
  for (const [path, locked] of Object.entries(lock.packages)) {
    if (path === '' || !path.includes('node_modules/')) continue; // the project itself, workspaces
    const mayBeAbsent = locked.optional === true || locked.devOptional === true;
    const have = installed.packages[path];
    if (!have) {
      if (mayBeAbsent) continue;
      return `${path} is not installed`;
    }
    if (have.version !== locked.version || (locked.integrity && have.integrity !== locked.integrity)) {
      return `${path} is ${have.version ?? 'another version'}, package-lock.json locks ${locked.version}`;
    }
    if (!locked.link && !exists(join(root, path, 'package.json'))) return `${path} was deleted`;
  }
  return undefined;
}

/**
 * Runs `npm ci` when node_modules is missing or does not match package-lock.json, in one line:
 * the reason, then how long it took. npm's own output is shown only when it fails.
 */
export function ensureDependencies(root, who) {
  const problem = dependencyProblem(root);
  if (!problem) return;
  process.stdout.write(`${who}: ${problem}; installing the locked dependencies (npm ci) ... `);
  const t0 = Date.now();
  const r = spawnSync('npm', ['ci'], {
    cwd: root,
    env: { ...process.env, ...NPM_QUIET },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    process.stdout.write('failed\n');
    throw new Error(
      `${who}: npm ci failed (exit ${String(r.status ?? r.error?.message)}):\n${(r.stdout ?? '') + (r.stderr ?? '')}`,
    );
  }
  process.stdout.write(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

/** True for an existing file this process may execute (symlinks followed). */
export function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Names looked up on PATH, in order of preference. */
const BROWSER_COMMANDS = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];

/** The usual install places of Chrome, Chromium and Edge, Debian's Chromium first. */
export function browserPaths(platform, home) {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    return [...apps.map((a) => `/Applications/${a}`), ...apps.map((a) => join(home, 'Applications', a))];
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
    '/snap/bin/chromium',
  ];
}

/**
 * Finds a Chrome, Chromium or Edge: `$GWS_BROWSER` when set (a wrong value is an error, not a
 * reason to pick another browser), else the usual paths, else the usual command names on PATH.
 * Returns `{ path, from }`, or `{ error, looked }` saying what was tried. `fsRoot` puts every
 * usual path under a folder, so tests can point the search at fake installs.
 */
export function findBrowser({
  env = process.env,
  platform = process.platform,
  home = homedir(),
  fsRoot = '',
  canRun = isExecutable,
} = {}) {
  const named = env[BROWSER_ENV];
  if (named) {
    if (canRun(named)) return { path: named, from: BROWSER_ENV };
    return { error: `${BROWSER_ENV}=${named} is not an executable file`, looked: [named] };
  }
  const looked = [];
  for (const p of browserPaths(platform, home)) {
    const path = fsRoot + p;
    looked.push(path);
    if (canRun(path)) return { path, from: 'a usual install path' };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of BROWSER_COMMANDS) {
      const path = join(dir, name);
      if (canRun(path)) return { path, from: 'PATH' };
    }
  }
  looked.push(`${BROWSER_COMMANDS.join(', ')} on PATH`);
  return { error: 'no Chrome, Chromium or Edge was found', looked };
}

/** What to tell the user when no browser was found: which stages are skipped, why, and the fix. */
export function noBrowserMessage(stages, found) {
  return [
    `SKIPPED ${stages.join(', ')}: ${stages.length > 1 ? 'these stages drive' : 'this stage drives'} a browser, and ${found.error}.`,
    `  looked at: ${found.looked.join(', ')}`,
    `  fix: install one (Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium),`,
    `       or name one: export ${BROWSER_ENV}=/path/to/chrome`,
  ].join('\n');
}

/** What the machine offers for installing packages (injected in tests). */
export function systemInfo() {
  let osRelease = '';
  try {
    osRelease = readFileSync('/etc/os-release', 'utf8');
  } catch {
    // not Linux, or a minimal system: not Debian-like
  }
  return {
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    debianLike: /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease),
    hasAptGet: onPath('apt-get'),
  };
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Debian packages the code-server install (test/host/install.ts) needs and this machine lacks:
 * its `kerberos` dependency compiles against krb5's headers with make, g++ and python3.
 */
export function missingHostBuildPackages(exists = existsSync, has = onPath) {
  const missing = [];
  if (!exists('/usr/include/krb5.h') && !exists('/usr/include/krb5/krb5.h')) missing.push('libkrb5-dev');
  for (const cmd of ['make', 'g++', 'python3']) if (!has(cmd)) missing.push(cmd);
  return missing;
}

/**
 * Debian packages the host stage's tests run (not the install): tinyproxy, the real HTTP proxy
 * of the proxy suite (test/integration/proxy.test.ts).
 */
export function missingHostTestPackages(has = onPath) {
  return has('tinyproxy') ? [] : ['tinyproxy'];
}

/**
 * CI builds the llama chroot (which may apt-get debootstrap) while the stages install theirs:
 * apt waits up to 5 minutes for the other's lock instead of failing at once.
 */
export const APT_WAIT = ['-o', 'DPkg::Lock::Timeout=300'];

/**
 * How to get `missing` Debian packages: the apt-get commands to run here (root on Debian or
 * Ubuntu), or the message to stop with, naming the exact command.
 */
export function packagePlan(missing, { isRoot, debianLike, hasAptGet }) {
  const list = missing.join(' ');
  if (debianLike && hasAptGet && isRoot) {
    return {
      run: [
        ['apt-get', ...APT_WAIT, 'update', '-qq'],
        ['apt-get', ...APT_WAIT, 'install', '-y', '-qq', '--no-install-recommends', ...missing],
      ],
    };
  }
  if (debianLike) {
    return {
      stop: `missing Debian packages: ${missing.join(', ')}. Install them, then run this again:\n  sudo apt-get update && sudo apt-get install -y ${list}`,
    };
  }
  return {
    stop: `missing system packages: ${missing.join(', ')} (Debian names). Install your system's equivalents, then run this again.`,
  };
}

/** Installs `missing` Debian packages with apt-get when root on Debian/Ubuntu, or throws the command to run. */
export function ensureSystemPackages(missing, who, info = systemInfo()) {
  if (missing.length === 0) return;
  const plan = packagePlan(missing, info);
  if (plan.stop) throw new Error(`${who}: ${plan.stop}`);
  process.stdout.write(`${who}: installing Debian packages ${missing.join(', ')} (apt-get, as root) ...\n`);
  for (const [cmd, ...args] of plan.run) {
    const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0)
      throw new Error(
        `${who}: \`${cmd} ${args.join(' ')}\` failed (exit ${String(r.status)}); install ${missing.join(' ')} by hand, then run this again`,
      );
  }
}

/**
 * The browser for the stages named in `stages`: found, or (root on Debian/Ubuntu, nothing named
 * in $GWS_BROWSER) Debian's chromium installed with apt-get. Undefined, after printing which
 * stages are skipped and why, when there is none.
 */
export function ensureBrowser(who, stages) {
  let found = findBrowser();
  if (found.path) return found.path;
  const info = systemInfo();
  if (!process.env[BROWSER_ENV] && packagePlan(['chromium'], info).run) {
    try {
      ensureSystemPackages(['chromium'], who, info);
    } catch (e) {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    }
    found = findBrowser();
    if (found.path) return found.path;
  }
  process.stdout.write(`${who}: ${noBrowserMessage(stages, found)}\n`);
  return undefined;
}
