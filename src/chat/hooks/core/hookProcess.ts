/**
 * Runs one hook command: the shell, in its folder, the event's JSON on stdin, stdout and stderr
 * kept up to a cap each (a hook that prints 10 MB costs 64 KB of memory, the rest is counted),
 * stopped at its timeout or when the turn is stopped, with everything it started (its own process
 * group on POSIX, `taskkill /T` on Windows).
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Bytes of stdout and of stderr kept from one hook. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;
/** How long a killed hook may take to close its pipes before we stop waiting (a child that left its group). */
const CLOSE_GRACE_MS = 1000;

export interface HookProcessOptions {
  cwd: string;
  stdin: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  maxOutputBytes?: number;
}

export interface HookProcessResult {
  /** null when it was killed or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Bytes printed in all, on both streams (more than kept when `truncated`). */
  totalBytes: number;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  /** Why it could not start (no shell, no folder). */
  spawnError?: string;
  durationMs: number;
}

/** A capped buffer: keeps the first `max` bytes, counts the rest. */
class Capped {
  private readonly parts: Buffer[] = [];
  kept = 0;
  total = 0;
  constructor(private readonly max: number) {}
  take(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.max) return;
    const part = chunk.subarray(0, this.max - this.kept);
    this.parts.push(part);
    this.kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}

function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export function runHookProcess(command: string, o: HookProcessOptions): Promise<HookProcessResult> {
  const started = Date.now();
  const max = o.maxOutputBytes ?? MAX_HOOK_OUTPUT_BYTES;
  const out = new Capped(max);
  const err = new Capped(max);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let done = false;
    let child: ChildProcess;
    const finish = (exitCode: number | null, spawnError?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode,
        stdout: out.text(),
        stderr: err.text(),
        totalBytes: out.total + err.total,
        truncated: out.total > out.kept || err.total > err.kept,
        timedOut,
        aborted,
        ...(spawnError !== undefined ? { spawnError } : {}),
        durationMs: Date.now() - started,
      });
    };
    const stop = () => {
      killTree(child);
      // A grandchild that left the group may hold the pipes open: stop waiting for them.
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(null);
      }, CLOSE_GRACE_MS).unref();
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, o.timeoutMs);
    try {
      child = spawn(command, {
        cwd: o.cwd,
        shell: true,
        detached: process.platform !== 'win32',
        stdio: ['pipe', 'pipe', 'pipe'],
        env: o.env ?? process.env,
        windowsHide: true,
      });
    } catch (e) {
      finish(null, e instanceof Error ? e.message : String(e));
      return;
    }
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (c: Buffer) => out.take(c));
    child.stderr?.on('data', (c: Buffer) => err.take(c));
    child.on('error', (e) => finish(null, e.message));
    child.on('close', (code) => finish(timedOut || aborted ? null : code));
    // A hook that never reads stdin closes it early: that is not a failure of the hook.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(o.stdin);
  });
}
