import { Worker } from 'node:worker_threads';

/** One search_text job for a match worker: the pattern, the files and the limits. */
export interface MatchJob {
  source: string;
  flags: string;
  files: { display: string; absolute: string }[];
  max: number;
  maxFileBytes: number;
  maxLine: number;
  maxHitLine: number;
}

/*
 * The matching runs in a worker thread because the pattern comes from the model: a regular
 * expression with catastrophic backtracking (`(a+)+$`) would otherwise freeze the whole extension
 * host, and search_text may be "always allowed". The worker streams hits back and is terminated
 * when the time budget runs out or the user stops; what it found so far is kept. A worker that
 * finished its job waits for the next one: starting a thread costs about 40 ms, paid at every
 * search before.
 */
const MATCH_WORKER = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
function run(j) {
  const re = new RegExp(j.source, j.flags);
  let hits = 0;
  for (const f of j.files) {
    let buf;
    let fd;
    try {
      // The walk listed regular files only; one swapped since for a link, a FIFO (whose read would
      // block this thread for good) or a device is skipped: no following, no waiting, type re-checked.
      fd = fs.openSync(f.absolute, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0) | (fs.constants.O_NOFOLLOW || 0));
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > j.maxFileBytes) continue;
      buf = fs.readFileSync(fd);
    } catch { continue; } finally { if (fd !== undefined) fs.closeSync(fd); }
    let binary = false;
    for (let i = 0, n = Math.min(buf.length, 8192); i < n; i++) if (buf[i] === 0) { binary = true; break; }
    if (binary) continue;
    parentPort.postMessage({ t: 'file' });
    const lines = buf.toString('utf8').split(/\\r?\\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].slice(0, j.maxLine);
      if (re.test(line)) {
        parentPort.postMessage({ t: 'hit', text: f.display + ':' + (i + 1) + ': ' + line.trim().slice(0, j.maxHitLine) });
        if (++hits >= j.max) return { t: 'end', why: 'reached ' + j.max + ' matches' };
      }
    }
  }
  return { t: 'end' };
}
parentPort.on('message', (j) => parentPort.postMessage(run(j)));
`;

/** Workers kept waiting between searches (subagents may search at the same time). */
const KEEP_IDLE = 2;
const idle: Worker[] = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    kept.ref();
    return kept;
  }
  const w = new Worker(MATCH_WORKER, { eval: true });
  // A waiting worker that ends (it should not) is no longer handed out.
  w.on('exit', () => {
    const at = idle.indexOf(w);
    if (at >= 0) idle.splice(at, 1);
  });
  return w;
}

/** A worker whose job ended well waits for the next one, without keeping the host alive. */
function giveBack(w: Worker): void {
  if (idle.length >= KEEP_IDLE) {
    void w.terminate();
    return;
  }
  w.unref();
  idle.push(w);
}

interface MatchResult {
  hits: string[];
  filesSearched: number;
  stopped?: string;
}

/** Runs `job` in a worker; a job cut short by its budget or by `signal` ends its worker and keeps what it found. */
export function matchInWorker(job: MatchJob, budgetMs: number, signal?: AbortSignal): Promise<MatchResult> {
  return new Promise((resolve, reject) => {
    const hits: string[] = [];
    let filesSearched = 0;
    let stopped: string | undefined;
    const w = takeWorker();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    // Set once the worker is being terminated: an 'end' already on its way then must not hand a
    // dying worker out again (the next search would wait on it until its own time limit).
    let killed = false;
    const stop = (why: string): void => {
      stopped ??= why;
      killed = true;
      void w.terminate();
    };
    const timer = setTimeout(
      () => stop(`time limit of ${budgetMs / 1000} s reached; a simpler pattern may be faster`),
      budgetMs,
    );
    const onAbort = (): void => stop('stopped');
    const onMessage = (m: { t: string; text?: string; why?: string }): void => {
      if (m.t === 'hit' && m.text !== undefined && hits.length < job.max) hits.push(m.text);
      else if (m.t === 'file') filesSearched++;
      else if (m.t === 'end') {
        if (m.why) stopped ??= m.why;
        done();
        if (!killed) giveBack(w);
        resolve({ hits, filesSearched, ...(stopped ? { stopped } : {}) });
      }
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    // Terminated (time limit, stop) or ended otherwise: what arrived so far is the answer.
    const onExit = (): void => {
      done();
      resolve({ hits, filesSearched, ...(stopped ? { stopped } : {}) });
    };
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return stop('stopped');
    w.postMessage(job);
  });
}
