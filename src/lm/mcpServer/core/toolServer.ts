/**
 * Gateway Studio's own MCP server for other agents (the Copilot agent host, Claude Code, Codex):
 * the tools other features offer the chat (`FeatureTool`: generate video, video status,
 * storyboards) over streamable HTTP on 127.0.0.1, each request carrying a per-session random
 * token. A call that changes something or costs money always waits for our own confirmation
 * (`confirm`, a modal in VS Code with the price): an agent that approves tools by itself still
 * cannot spend silently.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FeatureToolError, type FeatureTool } from '../../../contracts/featureTools';

export interface ToolServerOptions {
  tools: () => readonly FeatureTool[];
  /** Asks the user about a call that changes something or costs money; false: it does not run. */
  confirm: (tool: FeatureTool, summary: string | undefined, args: Record<string, unknown>) => Promise<boolean>;
  /** The bearer token every request must carry. */
  token: string;
  version: string;
  log?: (line: string) => void;
}

export interface RunningToolServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

/** A token for one session of the server: 32 random bytes, base64url. */
export function newServerToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameToken(header: string | undefined, token: string): boolean {
  const want = Buffer.from(`Bearer ${token}`);
  const got = Buffer.from(header ?? '');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** One MCP server object per request (stateless streamable HTTP): nothing is kept between calls. */
function mcpServer(o: ToolServerOptions): Server {
  const server = new Server({ name: 'gateway-studio', version: o.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: o.tools().map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: { type: 'object' as const, ...t.parameters },
      annotations: { readOnlyHint: t.readOnly, destructiveHint: false, openWorldHint: !t.readOnly },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = o.tools().find((t) => t.name === req.params.name);
    if (!tool) return failed(`There is no tool "${req.params.name}".`);
    const args = req.params.arguments ?? {};
    try {
      const callId = `mcp-${randomBytes(6).toString('hex')}`;
      const prepared = await tool.prepare(args, { signal: extra.signal, callId });
      if (!tool.readOnly && !(await o.confirm(tool, prepared.summary, args))) {
        return failed('The user declined this call in VS Code, so it was not run.');
      }
      const r = await prepared.run({ signal: extra.signal, callId });
      return { content: [{ type: 'text', text: r.content }] };
    } catch (e) {
      if (e instanceof FeatureToolError) return failed(e.message);
      o.log?.(`MCP server: ${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return failed(`The tool failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return server;
}

function failed(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startToolServer(o: ToolServerOptions): Promise<RunningToolServer> {
  let port = 0;
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    // A page of a browser can reach 127.0.0.1 too: a Host of another name is a rebinding attempt.
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refuse(res, 403, 'Forbidden host.');
    if (!sameToken(req.headers.authorization, o.token)) return refuse(res, 401, 'A valid token is required.');
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return refuse(res, 404, 'Not found.');
    if (req.method !== 'POST') return refuse(res, 405, 'Only POST is served (stateless).');
    const server = mcpServer(o);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((e: unknown) => {
        o.log?.(`MCP server: a request failed: ${String(e)}`);
        if (!res.headersSent) refuse(res, 500, 'Internal error.');
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
