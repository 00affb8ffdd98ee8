/**
 * llama.cpp's `llama-server` for the `llama` test stage: the real third-party OpenAI-compatible
 * server, from Debian sid's `llama.cpp-tools`, run inside the chroot that `scripts/llamaChroot.sh`
 * builds under `.cache/llama/sid` (sid's libc is newer than the host's), chroot + exec of a small
 * sh that runs it and stops it when this process goes away. It serves a tiny model
 * that `makeModel.py` writes for each run (no download). Only 127.0.0.1, a port the kernel picks.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** The chroot's root directory and the build script's "complete" marker. */
export const CHROOT = join(ROOT, '.cache', 'llama', 'sid');
export const READY = join(ROOT, '.cache', 'llama', 'ready');
const BUILD = join(ROOT, 'scripts', 'llamaChroot.sh');
const MAKE_MODEL = join(__dirname, 'makeModel.py');

/** Why the server cannot run here, or undefined when the chroot is built and complete. */
export function llamaUnavailable(): string | undefined {
  if (!existsSync(READY)) return `no sid chroot at ${CHROOT} (build it as root with: bash scripts/llamaChroot.sh)`;
  if (!existsSync(join(CHROOT, 'usr', 'bin', 'llama-server'))) return `${CHROOT} has no llama-server`;
  return undefined;
}

/** A running llama-server. */
export interface LlamaServer {
  /** Root URL without `/v1`, e.g. http://127.0.0.1:43647 */
  readonly url: string;
  /** The model id it answers to (`--alias`). */
  readonly model: string;
  /** The context per slot it was started with (`-c` / `-np`). */
  readonly nCtx: number;
  /** Milliseconds spent writing the model and starting the server until `/health` answered. */
  readonly startMs: number;
  /** The process group it runs in (chroot's pid: the shell, the server and the stdin reader). */
  readonly pid: number;
  /** The model file as the host sees it (removed by `close`). */
  readonly modelFile: string;
  /** What it printed so far (for failure messages). */
  log(): string;
  /** Stops it (its whole process group) and removes the model; resolves when it has exited. */
  close(): Promise<void>;
}

export interface LlamaOptions {
  /** Total context (`-c`); default 2048. */
  ctx?: number;
  /** Parallel slots (`-np`); each gets ctx / slots tokens. Default 1. */
  slots?: number;
  alias?: string;
  /** Seed of the random weights (the model differs per seed, the circuits do not). */
  seed?: number;
}

const CHROOT_BIN = ['/usr/sbin/chroot', '/usr/bin/chroot'].find((p) => existsSync(p)) ?? 'chroot';
/** The environment inside the chroot: none of the host's (its PATH, proxies, locale). */
const CHROOT_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C.UTF-8', HOME: '/root' };

/** Every server this process started, stopped on exit if a test forgot (or crashed). */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});
// A test process stopped by a signal (the runner's timeout, Ctrl+C) does not run 'exit' handlers
// by itself.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of live) killGroup(child, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Negative pid: the group the detached child leads (chroot execs the shell in place; the
    // server and the stdin reader are in its group).
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Writes the tiny model inside the chroot (python3-gguf) and returns its path as the chroot sees
 * it, and the host directory to remove afterwards.
 */
export function makeModel(seed = 7): { inChroot: string; hostDir: string } {
  // Models left by a test process that was killed (it could not remove them): older than an hour.
  const tmp = join(CHROOT, 'tmp');
  for (const name of readdirSync(tmp))
    if (name.startsWith('gws-llama-') && Date.now() - statSync(join(tmp, name)).mtimeMs > 3_600_000)
      rmSync(join(tmp, name), { recursive: true, force: true });
  const hostDir = mkdtempSync(join(CHROOT, 'tmp', 'gws-llama-'));
  const inChroot = `/tmp/${hostDir.slice(hostDir.lastIndexOf('/') + 1)}/model.gguf`;
  const r = spawnSync(CHROOT_BIN, [CHROOT, 'python3', '-', inChroot, String(seed)], {
    input: readFileSync(MAKE_MODEL),
    env: CHROOT_ENV,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) {
    rmSync(hostDir, { recursive: true, force: true });
    throw new Error(`makeModel.py failed (${r.status ?? r.signal}): ${r.stderr || r.error?.message}`);
  }
  return { inChroot, hostDir };
}

/** Makes the model, starts llama-server on a free port and waits until `/health` says ok. */
export async function startLlama(o: LlamaOptions = {}): Promise<LlamaServer> {
  const why = llamaUnavailable();
  if (why) throw new Error(`llama-server unavailable: ${why}`);
  const t0 = Date.now();
  // The script's reuse path: checks the chroot is complete (it mounts nothing then).
  const build = spawnSync('bash', [BUILD], { encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(`scripts/llamaChroot.sh failed: ${build.stdout}${build.stderr}`);
  const ctx = o.ctx ?? 2048;
  const slots = o.slots ?? 1;
  const model = o.alias ?? 'gws-tiny';
  const { inChroot, hostDir } = makeModel(o.seed);
  const args = [
    CHROOT,
    // The server, and beside it a reader of our stdin that stops it at end of file: when this
    // process dies in any way (even SIGKILL, which runs no handler), the pipe closes and the
    // server goes with it.
    '/bin/sh',
    '-c',
    // (fd 3: a background job's own stdin is /dev/null.)
    'exec 3<&0; llama-server "$@" </dev/null & pid=$!; (read _ <&3; kill $pid 2>/dev/null) & wait $pid',
    'llama-server',
    '-m',
    inChroot,
    '--alias',
    model,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--jinja',
    '-t',
    '2',
    '-c',
    String(ctx),
    '-np',
    String(slots),
    // Each kept-alive connection holds one of its HTTP threads (one per core by default, so 2
    // here): a test's clients and sessions would otherwise find it full and be hung up on.
    '--threads-http',
    '16',
  ];
  const child = spawn(CHROOT_BIN, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: CHROOT_ENV });
  live.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => live.delete(child));
  const port = new Promise<number>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString('utf8');
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`llama-server exited (${code ?? signal}) before listening:\n${output.slice(-3000)}`)),
    );
    child.once('error', reject);
  });
  const close = async () => {
    const group = child.pid;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    // The shell is gone; wait for the rest of its group (the server ends its slots first).
    for (let i = 0; group !== undefined && groupAlive(group); i++) {
      if (i === 50) process.kill(-group, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 100));
    }
    rmSync(hostDir, { recursive: true, force: true });
  };
  try {
    const p = await withTimeout(port, 60_000, 'llama-server to listen');
    const url = `http://127.0.0.1:${p}`;
    const healthy = async () => {
      for (;;) {
        const ok = await fetch(`${url}/health`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) return;
        if (child.exitCode !== null) throw new Error(`llama-server exited:\n${output.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await withTimeout(healthy(), 60_000, 'llama-server /health');
    return {
      url,
      model,
      nCtx: Math.floor(ctx / slots),
      startMs: Date.now() - t0,
      pid: child.pid ?? 0,
      modelFile: join(hostDir, 'model.gguf'),
      log: () => output,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** True while any process of the group still exists (signal 0 only checks). */
export function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}
