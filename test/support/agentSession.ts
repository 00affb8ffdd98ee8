/**
 * A scripted agent session through the chat's real turn loop (`runTurn`) against the local
 * gateway: user messages whose `#tools` scripts make the model read files of a temporary
 * workspace with the real built-in tools, a system prompt assembled as the chat assembles it
 * (product part, environment, a rules file), and an editor that changes at every request (the
 * cursor moves, the open editors change). For the prompt-cache bench and the prefix tests.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GatewayClient } from '../../src/api/client';
import type { CacheSetting } from '../../src/api/chat/promptCache';
import { readModelCalls } from '../../src/api/models/modelCall';
import type { Usage } from '../../src/api/chat/wire';
import { newConversation } from '../../src/chat/history/core/store';
import { editorStateNote, limitRules, type PromptSnapshot } from '../../src/chat/prompt/core/systemPrompt';
import { runTurn } from '../../src/chat/session/core/turnRunner';
import { builtinTools } from '../../src/chat/tools/core/builtins';
import { ToolRunner } from '../../src/chat/tools/core/runner';
import type { Conversation } from '../../src/shared/protocol';
import type { Gateway } from '../gateway/server';
import { nodeToolHost } from './nodeToolHost';
import { UNSET_PARAMS } from './helpers';

export interface AgentSessionOptions {
  gw: Pick<Gateway, 'url' | 'keys'>;
  /** The workspace the tools read (see {@link makeAgentWorkspace}). */
  workspace: string;
  model: string;
  /** `promptCache` of the model's `gatewayStudio.models.overrides` entry (undefined: its family's default). */
  promptCache?: CacheSetting;
  /** User messages, each a tool loop of `rounds` file reads and a closing answer. */
  userTurns: number;
  rounds: number;
  /**
   * Puts the editor state in the system prompt instead (as an agent's section): the layout before
   * issue 39, whose first message changes at every request.
   */
  volatileSystem?: boolean;
}

export interface AgentSessionRun {
  /** Each request's usage as the client saw it (the relay's own cache fields kept). */
  usages: Usage[];
  conversation: Conversation;
}

const FILES = 8;

/** A temporary workspace of {@link FILES} source files of about 6 KB each; remove it with `fs.rm`. */
export async function makeAgentWorkspace(): Promise<string> {
  const ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gws-agent-')));
  await fs.mkdir(path.join(ws, 'src'));
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from(
      { length: 150 },
      (_, n) => `export function step${i}_${n}(input: number): number { return input * ${n + 1} + ${i}; }`,
    );
    await fs.writeFile(path.join(ws, 'src', `module${i}.ts`), `${lines.join('\n')}\n`);
  }
  return ws;
}

const RULES = limitRules([
  {
    id: 'AGENTS.md',
    path: '/ws/AGENTS.md',
    kind: 'agents',
    text: Array.from({ length: 30 }, (_, i) => `- Rule ${i}: keep functions small, name them for what they do.`).join(
      '\n',
    ),
  },
]).rules;

/** Runs the session; every request's editor state differs from the one before. */
export async function runAgentSession(o: AgentSessionOptions): Promise<AgentSessionRun> {
  const usages: Usage[] = [];
  const calls = o.promptCache ? readModelCalls({ [o.model]: { promptCache: o.promptCache } }) : undefined;
  const backend = new GatewayClient(
    { baseUrl: o.gw.url, apiKey: o.gw.keys.valid, maxRetries: 0 },
    {
      observer: (a) => a.usage && usages.push(a.usage),
      routing: { settingsFor: (m) => calls?.byId[m] },
    },
  );
  const tools = builtinTools(nodeToolHost([{ name: 'ws', path: o.workspace }]));
  const runner = new ToolRunner({
    tools: () => tools,
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    choice: () => 'auto',
  });
  let request = 0;
  const prompt = (): Promise<PromptSnapshot> => {
    request++;
    const environment = {
      os: 'Linux 6.1.0 (x64)',
      shell: '/bin/bash',
      folders: ['ws'],
      date: '2026-11-28',
      activeFile: {
        path: `src/module${request % FILES}.ts`,
        language: 'typescript',
        selection: { startLine: request, startColumn: 1, endLine: request, endColumn: 1 },
      },
      openEditors: Array.from({ length: 1 + (request % 4) }, (_, i) => `src/module${i}.ts`),
    };
    return Promise.resolve({
      environment,
      rules: RULES,
      rulesBlocked: false,
      ...(o.volatileSystem ? { agent: { name: 'agent', instructions: editorStateNote(environment) } } : {}),
    });
  };
  const conv = newConversation(1);
  for (let t = 0; t < o.userTurns; t++) {
    const script = Array.from({ length: o.rounds }, (_, r) => ({
      calls: [{ name: 'read_file', arguments: { path: `src/module${(t * o.rounds + r) % FILES}.ts` } }],
    }));
    conv.messages.push({
      id: `u${t}`,
      role: 'user',
      text: `Step ${t}: read the modules and tell me what they do. #tools ${JSON.stringify(script)}`,
      images: [],
      contexts: [],
      createdAt: 1,
    });
    const out = await runTurn({
      backend,
      conversation: conv,
      defaults: { model: o.model, systemPrompt: '', params: UNSET_PARAMS },
      executor: runner,
      maxRounds: o.rounds + 1,
      signal: new AbortController().signal,
      callbacks: { onMessage: () => undefined, onDelta: () => undefined },
      prompt,
    });
    if (out.status !== 'done') throw new Error(`turn ${t} ended ${out.status}: ${out.error?.title ?? ''}`);
  }
  return { usages, conversation: conv };
}
