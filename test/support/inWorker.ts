/**
 * Runs a CPU-bound loop (the randomised fault suites' 10,000 streams) in a worker thread. Why: in
 * a test, node:test's async hook records every promise to report activity left after the test
 * ends, which took about a third of such a loop's time in a CPU profile; a worker thread has no
 * such hook. `fn` is an export of `module` that takes `args` and returns a structured-cloneable
 * value (the test asserts on it in its own thread).
 */
import { Worker } from 'node:worker_threads';

export function inWorker<T>(module: URL, fn: string, args: unknown): Promise<T> {
  const worker = new Worker(new URL('./workerEntry.mjs', import.meta.url), {
    workerData: { module: module.href, fn, args },
  });
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (value: T) => resolve(value));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker for ${fn} exited with code ${code} before answering`)));
  });
}
