import { spawn } from 'node:child_process';

/**
 * run_command's process handling, without VS Code: a shell command in a workspace folder with its
 * output captured up to a byte limit and a timeout, after which the whole process group is killed
 * (a shell's children would otherwise outlive it).
 */
export interface CommandOptions {
  cwd: string;
  timeoutMs: number;
  /** Output kept for the model (stdout and stderr interleaved); the rest is counted, not kept. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Every chunk as it arrives (for mirroring into a terminal). */
  onOutput?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
  /** Bytes produced in total (more than kept when `truncated`). */
  totalBytes: number;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** Runs `command` through the platform shell and resolves when it exits or is killed. */
export function runShellCommand(command: string, o: CommandOptions): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      cwd: o.cwd,
      shell: true,
      // Own process group on POSIX so a timeout can kill the shell and everything it started.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: o.env ?? process.env,
      windowsHide: true,
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let totalBytes = 0;
    let timedOut = false;
    let aborted = false;
    const take = (chunk: Buffer) => {
      totalBytes += chunk.length;
      o.onOutput?.(chunk.toString('utf8'));
      if (keptBytes < o.maxOutputBytes) {
        const part = chunk.subarray(0, o.maxOutputBytes - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const kill = () => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, o.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: code,
        signal: sig,
        output: Buffer.concat(kept).toString('utf8'),
        totalBytes,
        truncated: totalBytes > keptBytes,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      });
    });
  });
}

/** The tool message for a finished command: how it ended, then its output. */
export function describeCommandResult(command: string, r: CommandResult, timeoutMs: number): string {
  const how = r.timedOut
    ? `was stopped after the ${Math.round(timeoutMs / 1000)} s time limit`
    : r.aborted
      ? 'was stopped by the user'
      : r.exitCode !== null
        ? `exited with code ${r.exitCode}`
        : `was killed by signal ${r.signal ?? 'unknown'}`;
  const cut = r.truncated
    ? `\n… [output cut: ${r.totalBytes} bytes in total, only the first ${Buffer.byteLength(r.output)} kept]`
    : '';
  const body = r.output.trim() === '' ? '(no output)' : r.output;
  return `Command \`${command}\` ${how} after ${(r.durationMs / 1000).toFixed(1)} s.\nOutput:\n${body}${cut}`;
}
