/**
 * One running MCP server, through the official SDK's client: started over stdio (its stderr kept
 * as a tail for the status view and sent to the log) or streamable HTTP (falling back to the
 * older SSE transport when the address does not speak it), its tools, resources and prompts
 * listed and refreshed on `listChanged`, its calls bounded by a timeout and the caller's signal.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServer } from './trust';

export type { CallToolResult, McpTool, Prompt, Resource, ResourceTemplate };

export type McpServerState = 'stopped' | 'starting' | 'running' | 'failed';

/** The last part of a server's stderr kept for the status view (characters). */
const STDERR_TAIL = 4_000;
/** The largest message a stdio server may send (bytes). */
const MAX_STDIO_MESSAGE = 64 * 1024 * 1024;
/** How long a server may take to answer `initialize` and its first lists. */
export const START_TIMEOUT_MS = 30_000;

export interface McpConnectionOptions {
  /** Our client's name and version, as the server sees them. */
  client: { name: string; version: string };
  /** A line of the server's log (stderr, logging notifications, our own notes). */
  log: (line: string) => void;
  /** The state or the lists changed. */
  onChange: () => void;
  startTimeoutMs?: number;
}

/** An MCP server we connect to: its state, its lists, its calls. */
export class McpConnection {
  state: McpServerState = 'stopped';
  /** Why it failed, one line, with the stderr tail in {@link stderrTail}. */
  error: string | undefined;
  stderrTail = '';
  /** The name the server gives itself in `initialize` (VS Code names its tools by it). */
  serverInfoName: string | undefined;
  tools: McpTool[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  private client: Client | undefined;
  private stopping = false;

  constructor(
    readonly server: ResolvedServer,
    private readonly o: McpConnectionOptions,
  ) {}

  get name(): string {
    return this.server.def.name;
  }

  /** Connects and lists; on failure the state is `failed` with its reason (never throws). */
  async start(): Promise<void> {
    if (this.state === 'running' || this.state === 'starting') return;
    this.stopping = false;
    this.set('starting');
    this.error = undefined;
    this.stderrTail = '';
    try {
      this.client = await this.connect();
      this.serverInfoName = this.client.getServerVersion()?.name;
      await this.refresh();
      this.set('running');
    } catch (e) {
      this.fail(e instanceof Error ? e.message : String(e));
      await this.client?.close().catch(() => undefined);
      this.client = undefined;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined);
    this.tools = [];
    this.resources = [];
    this.templates = [];
    this.prompts = [];
    this.set('stopped');
  }

  /** Calls a tool; the SDK rejects on timeout, on `signal`, and when the server dies mid-call. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<CallToolResult> {
    const c = this.running();
    return (await c.callTool({ name, arguments: args }, undefined, {
      signal: opts.signal,
      timeout: opts.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: opts.timeoutMs * 10,
    })) as CallToolResult;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<Awaited<ReturnType<Client['readResource']>>> {
    return this.running().readResource({ uri }, signal ? { signal } : undefined);
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Awaited<ReturnType<Client['getPrompt']>>> {
    return this.running().getPrompt({ name, arguments: args }, signal ? { signal } : undefined);
  }

  private running(): Client {
    if (!this.client || this.state !== 'running') throw new Error(`The MCP server "${this.name}" is not running.`);
    return this.client;
  }

  private set(s: McpServerState): void {
    this.state = s;
    this.o.onChange();
  }

  private fail(why: string): void {
    this.error = why;
    this.o.log(`[${this.name}] failed: ${why}`);
    this.set('failed');
  }

  private newClient(): Client {
    const refreshed = (what: string) => (error: Error | null) => {
      if (error) this.o.log(`[${this.name}] refreshing its ${what} failed: ${error.message}`);
      else
        void this.refresh().then(
          () => this.o.onChange(),
          () => undefined,
        );
    };
    const client = new Client(this.o.client, {
      capabilities: {},
      listChanged: {
        tools: { onChanged: refreshed('tools'), autoRefresh: false },
        resources: { onChanged: refreshed('resources'), autoRefresh: false },
        prompts: { onChanged: refreshed('prompts'), autoRefresh: false },
      },
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      this.o.log(`[${this.name}] ${n.params.level}: ${data}`);
    });
    // Garbage on the wire (not JSON-RPC) is said in the log; the request it broke times out.
    client.onerror = (e) => this.o.log(`[${this.name}] protocol error: ${e.message}`);
    client.onclose = () => {
      if (this.client !== client || this.stopping) return;
      this.client = undefined;
      this.fail(`the server stopped${this.stderrTail ? '; its last output: ' + lastLine(this.stderrTail) : ''}`);
    };
    return client;
  }

  private async connect(): Promise<Client> {
    const r = this.server;
    const timeout = this.o.startTimeoutMs ?? START_TIMEOUT_MS;
    if (r.def.type === 'stdio') return this.connectWith(this.stdio(), timeout);
    const url = new URL(r.url ?? '');
    const requestInit = { headers: r.headers ?? {} };
    if (r.def.type === 'sse') return this.connectWith(new SSEClientTransport(url, { requestInit }), timeout);
    try {
      return await this.connectWith(new StreamableHTTPClientTransport(url, { requestInit }), timeout);
    } catch (e) {
      // The older servers answer a POST with 404 or 405 and speak SSE on GET: the spec's fallback.
      this.o.log(`[${this.name}] streamable HTTP failed (${(e as Error).message}); trying SSE`);
      return this.connectWith(new SSEClientTransport(url, { requestInit }), timeout);
    }
  }

  private stdio(): StdioClientTransport {
    const r = this.server;
    const t = new StdioClientTransport({
      command: r.command ?? '',
      args: r.args ?? [],
      // The SDK adds only PATH, HOME, SHELL, TERM, USER, LOGNAME (their Windows kin) to these:
      // nothing else of the extension host's environment reaches the server.
      env: r.env ?? {},
      ...(r.cwd !== undefined ? { cwd: r.cwd } : {}),
      stderr: 'pipe',
      // The SDK's 10 MB would close the connection on one large answer (a 20 MB file read); the
      // runner clips what the model reads, and a bigger message still ends the connection.
      maxBufferSize: MAX_STDIO_MESSAGE,
    });
    t.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      for (const line of text.split(/\r?\n/)) if (line.trim() !== '') this.o.log(`[${this.name}] ${line}`);
    });
    return t;
  }

  private async connectWith(transport: Transport, timeoutMs: number): Promise<Client> {
    const client = this.newClient();
    this.client = client;
    try {
      await client.connect(transport, { timeout: timeoutMs });
      return client;
    } catch (e) {
      this.client = undefined;
      await client.close().catch(() => undefined);
      const tail = this.stderrTail ? ` (${lastLine(this.stderrTail)})` : '';
      throw new Error(`${e instanceof Error ? e.message : String(e)}${tail}`);
    }
  }

  /** Lists what the server offers (each kind only when its capabilities say it has it). */
  private async refresh(): Promise<void> {
    const c = this.client;
    if (!c) return;
    const caps = c.getServerCapabilities() ?? {};
    const all = async <T>(page: (cursor?: string) => Promise<{ items: T[]; next?: string | undefined }>) => {
      const out: T[] = [];
      let cursor: string | undefined;
      // A server that pages forever is cut off: 50 pages is far beyond any real list.
      for (let i = 0; i < 50; i++) {
        const p = await page(cursor);
        out.push(...p.items);
        if (!p.next) break;
        cursor = p.next;
      }
      return out;
    };
    const params = (cursor?: string) => (cursor ? { cursor } : {});
    if (caps.tools)
      this.tools = await all(async (k) => {
        const r = await c.listTools(params(k));
        return { items: r.tools, next: r.nextCursor };
      });
    if (caps.resources) {
      this.resources = await all(async (k) => {
        const r = await c.listResources(params(k));
        return { items: r.resources, next: r.nextCursor };
      });
      this.templates = await all(async (k) => {
        const r = await c.listResourceTemplates(params(k));
        return { items: r.resourceTemplates, next: r.nextCursor };
      }).catch(() => []);
    }
    if (caps.prompts)
      this.prompts = await all(async (k) => {
        const r = await c.listPrompts(params(k));
        return { items: r.prompts, next: r.nextCursor };
      });
  }
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
