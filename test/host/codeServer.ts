// Starts code-server (a real VS Code: web workbench + Node extension host) on a free loopback
// port, in its own process group with per-run folders, and stops the whole group afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assertNotStopping, onCleanup } from './cleanup';
import type { HostInstall } from './install';
import { scanTree } from './keyScan';

/** User settings that keep the workbench quiet and deterministic in tests (see the recipe). */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'git.enabled': false,
  'window.restoreWindows': 'none',
};

/** Options of {@link startCodeServer}. */
export interface CodeServerOptions {
  install: HostInstall;
  /** Extra user settings, merged over {@link QUIET_SETTINGS}. */
  settings?: Record<string, unknown>;
  /** Where code-server's own output goes (appended). */
  logFile: string;
  /** How long to wait for `/healthz` (generous: a loaded 2-core machine is slow). */
  readyTimeoutMs?: number;
  /** A label for the per-run folder, for humans reading `ps` or /tmp. */
  label?: string;
  /** Try this port first (falls back to a free one when taken). */
  port?: number;
  /** Open this folder instead of a fresh empty one in the run folder (it is not deleted). */
  workspace?: string;
  /** JSON files written into the user data folder before start (path relative to it -> value). */
  userData?: Record<string, unknown>;
  /**
   * .vsix files installed with code-server's `--install-extension` into the run's own (empty)
   * extensions folder before it starts: the extension as a user gets it, not the development path.
   */
  installExtensions?: string[];
}

/** A running code-server. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** The per-run folder holding user data, extensions, TMPDIR and the workspace. */
  readonly runDir: string;
  /** An empty folder opened as the workspace. */
  readonly workspace: string;
  readonly userDataDir: string;
  /** Rewrites the user settings file (code-server watches it). */
  writeSettings(settings: Record<string, unknown>): void;
  /** Workbench URL opening {@link workspace}, with an optional development payload. */
  workbenchUrl(payload?: [string, string][]): string;
  /** Maps a local absolute path to the `vscode-remote://` URI the workbench uses for it. */
  remoteUri(absPath: string): string;
  /** Stops the process group and deletes the per-run folder. */
  stop(): Promise<void>;
}

/**
 * `code-server --install-extension FILE` into the run's folders, as a user installs a downloaded
 * .vsix; throws with code-server's output when it does not say the extension was installed.
 */
function installExtension(
  opts: CodeServerOptions,
  vsix: string,
  dirs: { userDataDir: string; extensionsDir: string },
  env: NodeJS.ProcessEnv,
): void {
  const args = ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  const r = spawnSync(opts.install.node, [opts.install.entry, ...args, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out))
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${String(r.status)}): ${out.trim()}`);
}

/** A free TCP port on 127.0.0.1 (released before returning; code-server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/healthz', timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `sig` to the whole process group; a missing group is not an error. */
function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is gone already.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  killGroup(pid, 'SIGTERM');
  // The extension host and file watchers are children in the same group: wait for all of them.
  const deadline = Date.now() + 10_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
  const hardDeadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < hardDeadline) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Starts code-server and resolves once `/healthz` answers 200. Cleanup is registered at once, so
 * a failure or a Ctrl-C during start-up still stops the group and removes the folders.
 */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const runDir = mkdtempSync(join(tmpdir(), `gws-${opts.label ?? 'host'}-`));
  const userDataDir = join(runDir, 'user-data');
  const extensionsDir = join(runDir, 'extensions');
  const tmp = join(runDir, 'tmp');
  const workspace = opts.workspace ?? join(runDir, 'workspace');
  for (const d of [
    join(userDataDir, 'User'),
    extensionsDir,
    tmp,
    workspace,
    join(runDir, 'xdg-config'),
    join(runDir, 'xdg-data'),
  ]) {
    mkdirSync(d, { recursive: true });
  }
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  const writeSettings = (s: Record<string, unknown>): void =>
    writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...s }, null, 2) + '\n');
  writeSettings(opts.settings ?? {});
  for (const [rel, value] of Object.entries(opts.userData ?? {})) {
    mkdirSync(dirname(join(userDataDir, rel)), { recursive: true });
    writeFileSync(join(userDataDir, rel), JSON.stringify(value, null, 2) + '\n');
  }

  const env = (tmp: string): NodeJS.ProcessEnv => ({
    ...process.env,
    EXTENSIONS_GALLERY: '{}', // no marketplace look-ups
    TMPDIR: tmp, // VS Code leaves sockets behind: keep them in the run folder
    XDG_CONFIG_HOME: join(runDir, 'xdg-config'), // keep code-server's config.yaml out of $HOME
    XDG_DATA_HOME: join(runDir, 'xdg-data'),
    NODE_OPTIONS: '',
  });
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  let child: ChildProcess | undefined;
  let port = 0;
  const removeDir = (): void => rmSync(runDir, { recursive: true, force: true });
  const stop = onCleanup(`code-server ${runDir}`, async () => {
    if (child) await stopGroup(child);
    log.end();
    // What the extension wrote (storage, logs, exports, videos) is checked for keys before it goes.
    scanTree(runDir, `${opts.label ?? 'host'} run folder ${runDir}`);
    removeDir();
  });

  try {
    for (const vsix of opts.installExtensions ?? [])
      installExtension(opts, vsix, { userDataDir, extensionsDir }, env(tmp));
    // A port found free can be taken before code-server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      port = attempt === 1 && opts.port && (await isFree(opts.port)) ? opts.port : await freePort();
      const args = [
        opts.install.entry,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        // Without it the built workbench silently ignores the extension development payload.
        '--vscode-option',
        'enable-smoke-test-driver',
        workspace,
      ];
      log.write(`\n$ node ${args.join(' ')}\n`);
      assertNotStopping();
      const c = spawn(opts.install.node, args, {
        detached: true, // its own process group, stopped as a whole
        stdio: ['ignore', 'pipe', 'pipe'],
        env: env(tmp),
      });
      child = c;
      c.stdout?.pipe(log, { end: false });
      c.stderr?.pipe(log, { end: false });
      const deadline = Date.now() + (opts.readyTimeoutMs ?? 180_000);
      let ok = false;
      while (Date.now() < deadline && !exited(c)) {
        if ((await healthz(port)) === 200) {
          ok = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      if (ok) break;
      const died = exited(c);
      const why = died ? `exited with ${String(c.exitCode ?? c.signalCode)}` : 'did not answer /healthz in time';
      await stopGroup(c);
      if (attempt >= 3 || !died) throw new Error(`code-server on 127.0.0.1:${port} ${why} (log: ${opts.logFile})`);
    }
  } catch (e) {
    await stop();
    throw e;
  }

  const origin = `http://127.0.0.1:${port}`;
  const authority = `127.0.0.1:${port}`;
  const remoteUri = (p: string): string =>
    `vscode-remote://${authority}${p.split('/').map(encodeURIComponent).join('/')}`;
  return {
    origin,
    port,
    runDir,
    workspace,
    userDataDir,
    writeSettings,
    remoteUri,
    workbenchUrl: (payload) => {
      let u = `${origin}/?folder=${encodeURIComponent(workspace)}`;
      if (payload) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return u;
    },
    stop,
  };
}
