/**
 * The local gateway in a child process: what it keeps (the last 2,000 request bodies, stamps) and
 * the CPU it spends never count in the process that measures, which stands for the extension
 * host alone (a relay is another machine). Same options as `startGateway`.
 */
import { fork } from 'node:child_process';
import { startGateway, type GatewayOptions } from '../../test/gateway/server';

/** The gateway as the measuring process sees it: where it listens and its keys. */
export interface GatewayProcess {
  url: string;
  keys: { valid: string };
  /** Every request it answered so far, by route (`POST /v1/chat/completions`: 12). */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

type Reply = { id: number; value: unknown };

/** Starts the gateway in a child process (this module is its entry too); it ends with this process. */
export async function gatewayProcess(options: GatewayOptions): Promise<GatewayProcess> {
  const child = fork(__filename, [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, GWS_GATEWAY_CHILD: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = new Map<number, (v: unknown) => void>();
  let next = 0;
  const { url, valid } = await new Promise<{ url: string; valid: string }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the gateway process ended (exit ${code}) before it listened`)));
  });
  child.on('message', (m: Reply) => replies.get(m.id)?.(m.value));
  const ask = (op: 'counts' | 'close'): Promise<unknown> =>
    new Promise((resolve) => {
      const id = ++next;
      replies.set(id, resolve);
      child.send({ id, op });
    });
  return {
    url,
    keys: { valid },
    counts: () => ask('counts') as Promise<Record<string, number>>,
    close: async () => {
      const ended = new Promise((r) => child.once('exit', r));
      await ask('close');
      child.disconnect();
      await ended;
    },
  };
}

/** In the child: starts the gateway, answers `counts` and `close`, and ends when its parent does. */
async function serveInChild(options: GatewayOptions): Promise<void> {
  const gw = await startGateway(options);
  process.on('message', (m: { id: number; op: 'counts' | 'close' }) => {
    if (m.op === 'counts') process.send?.({ id: m.id, value: gw.counts() });
    else void gw.close().then(() => process.send?.({ id: m.id, value: true }));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ url: gw.url, valid: gw.keys.valid });
}

if (process.env.GWS_GATEWAY_CHILD === '1' && process.send) {
  serveInChild(JSON.parse(process.argv[2] ?? '{}') as GatewayOptions).catch((e: unknown) => {
    console.error('gateway process:', e);
    process.exit(1);
  });
}
