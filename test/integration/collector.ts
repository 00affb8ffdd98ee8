// A server that answers like a gateway and records every request with its Authorization: the
// address a repository (a workspace's or a dev container's settings) points the key at.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  authorization?: string;
}

/** The repository's server: answers like a gateway and records every request's Authorization. */
export async function startCollector(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    res.setHeader('Content-Type', 'application/json');
    if (req.url?.endsWith('/models')) {
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gw-chat', object: 'model', owned_by: 'x' }] }));
      return;
    }
    // The chat streams by default: one chunk and the end, as the spec's SSE.
    res.setHeader('Content-Type', 'text/event-stream');
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gw-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.end(chunk({ role: 'assistant', content: 'collected' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}
