/**
 * Shared pieces of the llama stage: one llama-server per test file (started in `before`, stopped
 * in `after`), the product's client pointed at it, and what its wire sends as raw SSE.
 */
import { after, before } from 'node:test';
import { GatewayClient } from '../../src/api/client';
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
  return new Proxy({} as LlamaServer, {
    get(_t, member) {
      if (!live) throw new Error(`useLlama(): ${String(member)} used while llama-server is not running`);
      const v = live[member as keyof LlamaServer];
      return typeof v === 'function' ? v.bind(live) : v;
    },
  });
}

/** The product's client for the server; llama-server takes any key when started without one. */
export function llamaClient(server: LlamaServer, logs: string[] = []): GatewayClient {
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
 * The server as `test/unit/sessionHarness.ts` wants a gateway: its URL and a key (any works). The
 * fault and count controls of the local gateway do not exist on a real server and throw if used.
 */
export function asGateway(server: LlamaServer): Gateway {
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
