/**
 * The time our MCP client adds to a tool call (issue 38): `echo` of server-everything (from npm,
 * over real stdio) called N times through the bare SDK client, and N times through our whole path
 * (the pool's connection, the chat tool's prepare and run, the result framed for the model) in the
 * same run, interleaved so both see the same machine. Prints p50 and p99 of each and of the
 * difference. Goal: at most 5 ms added at p99. Then the chat's first request with 5 servers
 * configured: listing the tools must not wait for any server (they start in the background).
 */
import { performance } from 'node:perf_hooks';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readMcpConfig } from '../src/chat/mcp/core/config';
import { listMcpTools, mcpChatTool } from '../src/chat/mcp/core/mcpTools';
import { McpPool } from '../src/chat/mcp/core/pool';
import { median, percentile } from './support/stats';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const N = Number(process.env.BENCH_MCP_CALLS ?? 300);
const GOAL_P99_MS = 5;

function pool(names: string[]): McpPool {
  const servers = Object.fromEntries(names.map((n) => [n, { command: process.execPath, args: [EVERYTHING, 'stdio'] }]));
  const p = new McpPool({
    client: { name: 'bench', version: '0' },
    log: () => undefined,
    onChange: () => undefined,
    variables: () => ({ userHome: '/', env: () => undefined, input: () => Promise.resolve(undefined) }),
    secrets: () => Promise.resolve([]),
    mayStart: () => Promise.resolve(true),
  });
  void p.setDefinitions(readMcpConfig({ servers }, { scope: 'user', source: 'bench' }).servers);
  return p;
}

async function callOverhead(): Promise<void> {
  const bare = new Client({ name: 'bench-bare', version: '0' });
  await bare.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  const p = pool(['everything']);
  await p.startAll();
  const c = p.connections()[0]!;
  const entry = listMcpTools([c], { taken: new Set(), max: 128 }).offered.find((e) => e.tool.name === 'echo')!;
  const tool = mcpChatTool(entry, c, { summary: () => '' });
  const ours: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < N; i++) {
    const args = { message: `call ${i}` };
    let t = performance.now();
    await bare.callTool({ name: 'echo', arguments: args });
    sdk.push(performance.now() - t);
    // A signal per call, as the chat's turns have (the SDK adds a listener to it per request).
    const ctx = { signal: new AbortController().signal, conversationId: 'b', callId: `b${i}` };
    t = performance.now();
    await (await tool.prepare(args, ctx)).run(ctx);
    ours.push(performance.now() - t);
  }
  const added = ours.map((x, i) => x - sdk[i]!);
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(`MCP echo x${N}: bare SDK p50 ${ms(median(sdk))} p99 ${ms(percentile(sdk, 99))}`);
  console.log(`MCP echo x${N}: our path p50 ${ms(median(ours))} p99 ${ms(percentile(ours, 99))}`);
  const p99 = percentile(ours, 99) - percentile(sdk, 99);
  console.log(
    `added: p50 ${ms(median(ours) - median(sdk))}, p99 ${ms(p99)} (goal <= ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'ok' : 'OVER'}); per-call difference p50 ${ms(median(added))}`,
  );
  await bare.close();
  await p.dispose();
}

async function firstRequestWithFiveServers(): Promise<void> {
  const p = pool(['a', 'b', 'c', 'd', 'e']);
  const t = performance.now();
  const starting = p.startAll();
  // What the chat does for its first request: list the tools offered now (the runner's tools()).
  const listed = listMcpTools(p.connections(), { taken: new Set(), max: 128 }).offered.length;
  console.log(
    `5 servers configured: the first request's tool listing took ${(performance.now() - t).toFixed(2)} ms (${listed} MCP tools yet; servers start in the background)`,
  );
  await starting;
  console.log(
    `  all 5 running after ${(performance.now() - t).toFixed(0)} ms, ${listMcpTools(p.connections(), { taken: new Set(), max: 1000 }).offered.length} tools`,
  );
  await p.dispose();
}

async function main(): Promise<void> {
  await callOverhead();
  await firstRequestWithFiveServers();
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
