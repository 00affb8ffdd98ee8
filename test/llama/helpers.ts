/**
 * Shared pieces of the llama stage: one llama-server per test file (started in `before`, stopped
 * in `after`), the product's client pointed at it, and what its wire sends as raw SSE.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import type { ToolExecutor } from '../../src/chat/tools/core/seam';
import type { Gateway } from '../gateway/server';
import { startLlama, type LlamaOptions, type LlamaServer } from './server';

/**
 * Starts llama-server in a `before` hook and stops it in `after`. The returned object stands for
 * the running server; using it before `before` ran throws.
 */
export function useLlama(o: LlamaOptions = {}): LlamaServer {
  let live: LlamaServer | undefined;
  before(async () => {
    live = await startLlama(o);
    console.log(`# llama-server ${live.url} (model ${live.model}, n_ctx ${live.nCtx}) ready in ${live.startMs} ms`);
  });
  after(async () => {
    await live?.close();
    live = undefined;
  });
  // llama-server hangs up a connection after a streamed answer; node's fetch learns that only
  // when the close arrives, so a request sent in the same instant on that pooled connection
  // fails with "other side closed". Users never send that fast; tests do, between two tests.
  afterEach(() => new Promise((r) => setTimeout(r, 100)));
  return new Proxy({} as LlamaServer, {
    get(_t, member) {
      if (!live) throw new Error(`useLlama(): ${String(member)} used while llama-server is not running`);
      const v = live[member as keyof LlamaServer];
      return typeof v === 'function' ? v.bind(live) : v;
    },
  });
}

/** The product's client for the server; llama-server takes any key when started without one. */
export function llamaClient(server: { url: string }, logs: string[] = []): GatewayClient {
  return new GatewayClient({
    baseUrl: server.url,
    apiKey: 'sk-any',
    maxRetries: 0,
    log: (level, msg) => {
      if (level === 'warn' || level === 'error') logs.push(msg);
    },
  });
}

/**
 * The server as `test/support/sessionHarness.ts` wants a gateway: its URL and a key (any works). The
 * fault and count controls of the local gateway do not exist on a real server and throw if used.
 */
export function asGateway(server: { url: string }): Gateway {
  const none = () => {
    throw new Error('llama-server has no local-gateway controls');
  };
  return new Proxy({} as Gateway, {
    get(_t, member) {
      if (member === 'url' || member === 'videoUrl') return server.url;
      if (member === 'keys') return { valid: 'sk-any', noPermission: 'sk-any', noBalance: 'sk-any' };
      return none;
    },
  });
}

/** POSTs a chat request as the product would stream it and returns every `data:` payload parsed. */
export async function rawStream(server: LlamaServer, body: Record<string, unknown>): Promise<unknown[]> {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
  });
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.trim() !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as unknown);
}

/** The weather tool of the tool-call tests. */
export const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
};

/** One request the product sent through {@link recordingProxy}, with what the server answered. */
export interface Exchange {
  method: string;
  path: string;
  request: unknown;
  status: number;
  /** `usage.prompt_tokens` of the answer (streamed or not), when it had one. */
  promptTokens?: number;
  /** `error.type` of a refusal. */
  errorType?: string;
}

/**
 * One request to llama-server on a connection of its own. A pooled keep-alive connection can be
 * closed by the server just as the next request is written on it ("fetch failed" on the 7th turn of
 * a loaded run): that race is the test proxy's, not the product's, so the proxy never reuses one.
 */
function forward(
  url: string,
  method: string,
  contentType: string | undefined,
  body: Buffer,
): Promise<{ status: number; contentType: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const out = request(
      url,
      {
        method,
        agent: false,
        headers: {
          'content-type': contentType ?? 'application/json',
          ...(hasBody ? { 'content-length': body.length } : {}),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            text: Buffer.concat(parts).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(hasBody ? body : undefined);
  });
}

/**
 * A pass-through proxy on 127.0.0.1 between the product and llama-server that records every
 * request body and the server's own prompt count (its `usage`), so a test can compare what the
 * product estimated with what the server counted, request by request.
 */
export async function recordingProxy(server: {
  url: string;
}): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const proxy = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      void (async () => {
        const upstream = await forward(
          `${server.url}${req.url ?? '/'}`,
          req.method ?? 'GET',
          req.headers['content-type'],
          body,
        );
        const text = upstream.text;
        const x: Exchange = {
          method: req.method ?? '',
          path: req.url ?? '',
          request: body.length ? (JSON.parse(body.toString('utf8')) as unknown) : undefined,
          status: upstream.status,
        };
        const usage = /"usage":\{[^}]*"prompt_tokens":(\d+)/.exec(text);
        if (usage) x.promptTokens = Number(usage[1]);
        const type = /"type":"([a-z_]+_error)"/.exec(text);
        if (upstream.status >= 400 && type) x.errorType = type[1];
        exchanges.push(x);
        res.writeHead(upstream.status, { 'content-type': upstream.contentType ?? 'text/plain' });
        res.end(text);
      })().catch((e: unknown) => {
        res.writeHead(502);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}

/** A tool host that answers every weather call with `report`, counting the calls. */
export function weatherTools(report = 'sunny, 21 degrees'): ToolExecutor & { calls: number; ids: string[] } {
  const t = {
    calls: 0,
    ids: [] as string[],
    definitions: () => [WEATHER_TOOL],
    toolChoice: () => undefined,
    execute: (calls: { id: string }[]) => {
      t.calls += calls.length;
      t.ids.push(...calls.map((c) => c.id));
      return Promise.resolve(calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: report })));
    },
  };
  return t;
}
