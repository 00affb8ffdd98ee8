/**
 * Recorded-stream snapshot tests: an SSE stream stored as a fixture file (in a relay's documented
 * format) is served by a local HTTP server on 127.0.0.1 to the real GatewayClient, and what the
 * client assembled (text, reasoning, tool calls, usage, and what its events said along the way) is
 * compared with a JSON snapshot beside the fixture. `GWS_UPDATE_SNAPSHOTS=1` rewrites the
 * snapshots instead (review the diff); a missing snapshot fails.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest, ChatResult, ChatStreamEvent } from '../../src/api/chat/wire';
import { GatewayClient } from '../../src/api/client';
import { readModelCalls } from '../../src/api/models/modelCall';

/** What a replay gathered: the result, and the stream's events joined by kind. */
export interface Replayed {
  result: ChatResult;
  streamed: { text: string; reasoning: string; toolArguments: string[]; finish: string[]; usageEvents: number };
  /** The request the client sent, as the server received it. */
  request: Record<string, unknown>;
}

/**
 * Serves `fixture` (in 61-byte pieces, so lines and events are cut across reads) to every request,
 * and streams one chat question through a GatewayClient speaking `protocol`.
 */
export async function replay(fixture: string, protocol: 'chat' | 'responses' = 'chat'): Promise<Replayed> {
  const bytes = readFileSync(fixture);
  let request: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (b: Buffer) => body.push(b));
    req.on('end', () => {
      request = JSON.parse(Buffer.concat(body).toString('utf8') || '{}') as Record<string, unknown>;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (let at = 0; at < bytes.length; at += 61) res.write(bytes.subarray(at, at + 61));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const routing =
      protocol === 'responses' ? { settingsFor: (m: string) => readModelCalls({ [m]: { protocol } }).byId[m] } : {};
    const client = new GatewayClient(
      { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-recorded', maxRetries: 0 },
      { routing },
    );
    const events: ChatStreamEvent[] = [];
    const ask: ChatRequest = {
      model: 'recorded-model',
      messages: [{ role: 'user', content: 'the recorded question' }],
    };
    const result = await client.streamChat(ask, { onEvent: (e) => events.push(e) });
    return { result, streamed: joined(events), request };
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

function joined(events: ChatStreamEvent[]): Replayed['streamed'] {
  const out: Replayed['streamed'] = { text: '', reasoning: '', toolArguments: [], finish: [], usageEvents: 0 };
  for (const e of events) {
    if (e.type === 'text') out.text += e.text;
    else if (e.type === 'reasoning') out.reasoning += e.text;
    else if (e.type === 'tool_call') out.toolArguments[e.index] = (out.toolArguments[e.index] ?? '') + e.argumentsDelta;
    else if (e.type === 'finish') out.finish.push(e.reason);
    else if (e.type === 'usage') out.usageEvents++;
  }
  return out;
}

/** Compares `actual` with the JSON snapshot at `file` (or writes it with GWS_UPDATE_SNAPSHOTS=1). */
export function matchSnapshot(actual: unknown, file: string): void {
  const plain = JSON.parse(JSON.stringify(actual)) as unknown;
  if (process.env.GWS_UPDATE_SNAPSHOTS === '1') {
    writeFileSync(file, `${JSON.stringify(plain, null, 2)}\n`);
    return;
  }
  assert.ok(existsSync(file), `no snapshot at ${file}: run with GWS_UPDATE_SNAPSHOTS=1 and review it`);
  assert.deepEqual(plain, JSON.parse(readFileSync(file, 'utf8')));
}
