/**
 * The local gateway in a worker thread: its own V8 isolate, so what it keeps (the last 2,000
 * request bodies, stamps) never counts in the heap of the thread that measures, which stands for
 * the extension host alone (a relay is another machine). Same options as `startGateway`.
 */
import { Worker, parentPort } from 'node:worker_threads';
import { startGateway, type GatewayOptions } from '../../test/gateway/server';

/** The gateway as the measuring thread sees it: where it listens and its keys. */
export interface GatewayThread {
  url: string;
  keys: { valid: string };
  /** Every request it answered so far, by route (`POST /v1/chat/completions`: 12). */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

type Reply = { id: number; value: unknown };

/** Starts the gateway in a worker thread (this module is its entry too, through test/support/workerEntry.mjs). */
export async function gatewayThread(options: GatewayOptions): Promise<GatewayThread> {
  const worker = new Worker(new URL('../../test/support/workerEntry.mjs', import.meta.url), {
    workerData: { module: new URL('./gatewayThread.ts', import.meta.url).href, fn: 'serveInThread', args: options },
  });
  const replies = new Map<number, (v: unknown) => void>();
  let next = 0;
  const started = new Promise<{ url: string; valid: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const { url, valid } = await started;
  worker.on('message', (m: Reply) => replies.get(m.id)?.(m.value));
  worker.on('error', (e) => console.error('gateway thread:', e));
  const ask = (op: 'counts' | 'close'): Promise<unknown> =>
    new Promise((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      worker.postMessage({ id, op });
    });
  return {
    url,
    keys: { valid },
    counts: () => ask('counts') as Promise<Record<string, number>>,
    close: async () => {
      await ask('close');
      await worker.terminate();
    },
  };
}

/** In the worker: starts the gateway, answers `counts` and `close`. Its return value is posted first. */
export async function serveInThread(options: GatewayOptions): Promise<{ url: string; valid: string }> {
  const gw = await startGateway(options);
  parentPort?.on('message', (m: { id: number; op: 'counts' | 'close' }) => {
    if (m.op === 'counts') parentPort?.postMessage({ id: m.id, value: gw.counts() });
    else void gw.close().then(() => parentPort?.postMessage({ id: m.id, value: true }));
  });
  return { url: gw.url, valid: gw.keys.valid };
}
