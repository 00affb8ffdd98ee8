/**
 * The soak bench's host side (bench/agent-soak.bench.ts): the chat session as the extension host
 * composes it, in plain node. The real ChatSession over the real conversation store (a file per
 * conversation, as `chat/history/vscode/conversationStorage.ts` keeps them), the real ChatHub as
 * its sink (what it posts to the page is written to a file, one JSON line per message, for the
 * page side to replay), the real ToolRunner with the built-in tools over a temp workspace and the
 * `run_subagent` tool, the queue's core state machine at the session's turn edges, answers
 * priced from the gateway's own prices; the local gateway runs in its own process.
 */
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GatewayClient } from '../../src/api/client';
import type { ChatRequest, ChatResult, StreamOptions } from '../../src/api/chat/wire';
import type { ModelRecord } from '../../src/api/models/models';
import { builtinAgents } from '../../src/chat/agents/core/agent';
import { PERSISTED_FAMILIES } from '../../src/contracts/persistedState/chat';
import type { HostMessage } from '../../src/shared/protocol';
import type { KeyValueStorage } from '../../src/chat/conversation/core/contracts';
import { FileStorage } from '../../src/chat/history/core/fileStorage';
import { ConversationStore, isConversationStoreKey } from '../../src/chat/history/core/store';
import { ChatHub } from '../../src/chat/panel/core/hub';
import { ChatSession } from '../../src/chat/session/core/session';
import type { SessionBackend } from '../../src/chat/session/core/sessionDeps';
import type { SubagentToolDeps } from '../../src/chat/subagents/core/deps';
import { subagentTool } from '../../src/chat/subagents/core/subagentTool';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner, type Tool, type ToolRunnerOptions } from '../../src/chat/tools/core/runner';
import { tempWorkspace } from '../../test/support/builtinTool';
import { MemoryStorage } from '../../test/support/memoryStorage';
import { nodeToolHost } from '../../test/support/nodeToolHost';
import { SETTINGS } from '../../test/support/sessionHarness';
import { gatewayProcess } from './gatewayProcess';
import { gatewayPrices, type Prices } from './soakPricing';
import { SoakQueue } from './soakQueue';
import { workspaceFiles } from './soakPlan';

/** Who made a request: the parent's turn, an Explore run, or the context guard's summary. */
export type StepKind = 'agent' | 'explore' | 'summary';

/** A profile's client as the session and the subagents use it, telling when each request starts. */
class TimedBackend implements SessionBackend {
  constructor(
    private readonly client: GatewayClient,
    private readonly started: (kind: StepKind) => number,
    private readonly kind: StepKind,
    private readonly prompted: (step: number, tokens: number | undefined) => void,
  ) {}
  /** Counts the request as a step; its answer's prompt tokens are noted under that step. */
  private async timed(req: ChatRequest, send: () => Promise<ChatResult>): Promise<ChatResult> {
    const first = req.messages[0];
    const summary = first?.role === 'system' && String(first.content).startsWith('Summarise the conversation');
    const step = this.started(summary ? 'summary' : this.kind);
    const r = await send();
    this.prompted(step, r.usage?.prompt_tokens);
    return r;
  }
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    return this.timed(req, () => this.client.chat(req, signal));
  }
  streamChat(req: ChatRequest, o: StreamOptions): Promise<ChatResult> {
    return this.timed(req, () => this.client.streamChat(req, o));
  }
  listModels(signal?: AbortSignal): Promise<ModelRecord[]> {
    return this.client.listModels(signal);
  }
}

/** The session and everything around it; `close` removes the temp folders and stops the gateway. */
export interface SoakHost {
  session: ChatSession;
  queue: SoakQueue;
  /**
   * When each request started (performance.now()), the main thread's busy time by then (event
   * loop utilisation's `active`, ms: the host's own work, without the waits for the gateway),
   * its CPU time (the gateway runs in its own process), whose request it was, and the tools its step ran.
   */
  starts: number[];
  busy: number[];
  /** This process's CPU time by then (user and system, ms, every thread: GC, search workers). */
  cpu: number[];
  kinds: StepKind[];
  /** Each step's prompt tokens, as the gateway counted them in its answer's usage. */
  prompts: number[];
  tools: string[][];
  /** Saves of the whole conversation record (each one the conversation's JSON, written to its file). */
  saves: () => number;
  /** The conversation's file now, in bytes. */
  storedBytes: () => number;
  /** Parts of the conversation written (a long one is a head and parts: chat/history/core/parts.ts). */
  partsWritten: () => number;
  /** Called at the start of each request of the parent's turns (after it is counted). */
  onAgentRequest: () => void;
  /** Messages posted to the page so far (the line count of `recordFile`). */
  posted(): number;
  recordFile: string;
  subagentRuns: () => number;
  toolCalls: () => number;
  close(): Promise<void>;
}

/** One line of the record: the step count when the message was posted, and the message. */
export type Recorded = [number, HostMessage];

export function readRecord(file: string): Recorded[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}

export async function openSoakHost(): Promise<SoakHost> {
  const gw = await gatewayProcess({ models: { 'gw-mini': 'gw-chat' } });
  const ws = await tempWorkspace(workspaceFiles());
  const folder = await mkdtemp(join(tmpdir(), 'gws-soak-'));
  const recordFile = join(folder, 'page-messages.jsonl');
  const fd = openSync(recordFile, 'w');
  let posted = 0;
  const starts: number[] = [];
  const busy: number[] = [];
  const cpu: number[] = [];
  const kinds: StepKind[] = [];
  const stepTools: string[][] = [];
  const hub = new ChatHub();
  // The page's webview: VS Code serialises each message as it is posted; here it goes to a file,
  // with the number of requests started by then (the page side replays it step by step).
  const surface = hub.add(
    {
      postMessage: (m: unknown) => {
        writeSync(fd, `${JSON.stringify([starts.length, m])}\n`);
        posted++;
        return Promise.resolve(true);
      },
    },
    () => true,
  );
  hub.ready(surface, []);
  const prices = await gatewayPrices(gw);
  const host = { onAgentRequest: () => undefined } as Pick<SoakHost, 'onAgentRequest'>;
  const started = (kind: StepKind) => {
    starts.push(performance.now());
    busy.push(performance.eventLoopUtilization().active);
    cpu.push(cpuMs());
    kinds.push(kind);
    stepTools.push([]);
    if (kind === 'agent') host.onAgentRequest();
    return starts.length - 1;
  };
  const prompts: number[] = [];
  const prompted = (step: number, tokens: number | undefined) => {
    prompts[step] = tokens ?? Number.NaN;
  };
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  const parentBackend = new TimedBackend(client, started, 'agent', prompted);
  const exploreBackend = new TimedBackend(client, started, 'explore', prompted);
  // The tools and the queue reach the session, which is made after them.
  const current = (): ChatSession => session;
  const queue = new SoakQueue(current, (m) => hub.broadcast(m));
  const tools = soakTools(ws.root, current, exploreBackend, prices, (name) => stepTools.at(-1)?.push(name));
  const files = new FileStorage({
    folder: join(folder, 'chat-conversations'),
    legacy: new MemoryStorage(),
    owns: isConversationStoreKey,
  });
  let saves = 0;
  let partsWritten = 0;
  const counted: KeyValueStorage = {
    get: (k) => files.get(k),
    keys: () => files.keys(),
    update: (k, v) => {
      if (v !== undefined && k.startsWith(PERSISTED_FAMILIES.chatConversation.prefix)) saves++;
      if (v !== undefined && k.startsWith(PERSISTED_FAMILIES.chatConversationPart.prefix)) partsWritten++;
      return files.update(k, v);
    },
  };
  // The conversation's head and parts (one session, one conversation in this folder).
  const storedBytes = () =>
    readdirSync(files.folder)
      .filter((n) => n.startsWith('gatewayStudio.chat.conversation.') || n.startsWith('gatewayStudio.chat.part.'))
      .reduce((sum, n) => sum + statSync(join(files.folder, n)).size, 0);
  const session: ChatSession = new ChatSession({
    store: new ConversationStore(counted),
    backend: () => Promise.resolve(parentBackend),
    // A 128k window, as a user states it for gw-chat (the default is 32k): the session outgrows it once.
    settings: () => ({ ...SETTINGS, maxRounds: 15, modelOverrides: { 'gw-chat': { contextWindow: 131_072 } } }),
    sink: hub,
    contextStorage: new MemoryStorage(),
    priceAnswer: (_b, q) => Promise.resolve(prices.price(q)),
    queue: queue.turns,
    log: { warn: (m) => console.warn(`  host warning: ${m}`), error: (m) => console.error(`  host error: ${m}`) },
  });
  session.setToolExecutor(tools.runner);
  return Object.assign(host, {
    session,
    queue,
    starts,
    busy,
    cpu,
    kinds,
    prompts,
    tools: stepTools,
    saves: () => saves,
    partsWritten: () => partsWritten,
    storedBytes,
    posted: () => posted,
    recordFile,
    subagentRuns: tools.subagentRuns,
    toolCalls: tools.toolCalls,
    close: async () => {
      session.dispose();
      hub.dispose();
      closeSync(fd);
      await ws.dispose();
      await rm(folder, { recursive: true, force: true });
      await gw.close();
    },
  });
}

/** The chat's tools as `chat/tools/vscode/register.ts` builds them: built-ins and `run_subagent`, all trusted. */
/** This process's CPU time so far, ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function soakTools(
  root: string,
  session: () => ChatSession,
  backend: TimedBackend,
  prices: Prices,
  called: (name: string) => void,
): { runner: ToolRunner; subagentRuns: () => number; toolCalls: () => number } {
  const calls = new Map<string, number>();
  // Every call the model made, the subagents' included, counted by tool as the runner prepares it.
  const counted = (t: Tool): Tool => ({
    ...t,
    prepare: (args, ctx) => {
      const name = t.definition.function.name;
      calls.set(name, (calls.get(name) ?? 0) + 1);
      called(name);
      return t.prepare(args, ctx);
    },
  });
  const tools: Tool[] = [];
  const options: ToolRunnerOptions = {
    tools: () => tools,
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    choice: () => 'auto',
    onUpdate: (u) => session().postToolCall(u),
    workspaceTrusted: () => true,
  };
  const deps: SubagentToolDeps = {
    parent: () => Promise.resolve({ agent: builtinAgents()[0]!, profile: 'main', model: 'gw-chat' }),
    agent: () => Promise.resolve(undefined),
    settings: () => ({ maxParallel: 3, maxRounds: 15, utilityModel: '' }),
    profiles: () => [{ id: 'main', name: 'Main' }],
    backend: () => Promise.resolve(backend),
    runner: (r) => new ToolRunner({ ...options, ...r, choice: () => 'auto' }),
    approve: () => Promise.resolve('allow'),
    post: (u) => session().postToolCall(u),
    price: (_b, q) => Promise.resolve(prices.price(q)),
    money: (c) => `${c.quota} quota`,
  };
  const host = nodeToolHost([{ name: 'ws', path: root }], { commandTimeoutMs: 5000 });
  tools.push(...[...builtinTools(host), subagentTool(deps)].map(counted));
  return {
    runner: new ToolRunner(options),
    subagentRuns: () => calls.get('run_subagent') ?? 0,
    toolCalls: () => [...calls.values()].reduce((a, b) => a + b, 0),
  };
}
