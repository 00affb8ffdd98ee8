/**
 * A chat session (src/chat/session/core/session.ts) as a window would run it, in plain node: over a
 * storage that stands for the workspace state, asking the local gateway over real HTTP, with what
 * it sends to the chat views recorded.
 */
import { GatewayClient } from '../../src/api/client';
import type { HttpOptions } from '../../src/api/transport/http';
import { ChatSession } from '../../src/chat/session/core/session';
import type { Question, SessionDeps, SessionSettings } from '../../src/chat/session/core/sessionDeps';
import type { HostMessage } from '../../src/shared/protocol';
import { DEFAULT_CHAT_PARAMS } from '../../src/shared/chatParams';
import type { Gateway } from '../gateway/server';
import { MemoryStorage } from './memoryStorage';
import { ConversationStore } from '../../src/chat/history/core/store';

/** The settings as a fresh profile has them, with the gateway's chat model chosen. */
export const SETTINGS: SessionSettings = {
  chatModel: 'gw-chat',
  systemPrompt: '',
  params: { ...DEFAULT_CHAT_PARAMS, stop: [] },
  maxRounds: 10,
};

/**
 * Where the session's client goes: the local gateway, or any OpenAI-compatible server (a
 * llama-server, say) given as `{ url, keys: { valid } }` (the base URL with or without `/v1`).
 */
export type SessionTarget = Pick<Gateway, 'url'> & { keys: Pick<Gateway['keys'], 'valid'> };

/** A session over a storage, as {@link openSession} returns it. */
export interface OpenSession {
  readonly session: ChatSession;
  readonly storage: MemoryStorage;
  /** Every message the session sent to the views (deltas one by one), copied when sent. */
  readonly received: HostMessage[];
  /** Polls `pred` every 10 ms; past the timeout fails naming `what`, with the warnings logged. */
  until(pred: () => boolean, what: string): Promise<void>;
  /** The session's and its client's warn and error log lines. */
  readonly logs: string[];
}

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
  /** How long `until` waits (default 10 s). */
  timeoutMs?: number;
  /** Settings over {@link SETTINGS}. */
  settings?: Partial<SessionSettings>;
  /** Client options over the defaults (no retries), such as `maxRetries` or `idleTimeoutMs`. */
  client?: Partial<HttpOptions>;
  /**
   * The key as SecretStorage holds it now, read before each turn as the extension's client
   * factory does (a changed key gives a new client); default: the gateway's valid key, always.
   */
  apiKey?: () => string | undefined;
  /** The system prompt's snapshot (environment, rules), as the chat view passes it. */
  prompt?: SessionDeps['prompt'];
  /** What the host side hears of the session besides its messages to the views. */
  events?: SessionDeps['events'];
  /** Who prices ended answers (the account feature, through the platform's bridge). */
  priceAnswer?: SessionDeps['priceAnswer'];
  /** The agents a turn may run as (`chat/agents`). */
  agents?: SessionDeps['agents'];
  /** The spend caps (`chat/caps`). */
  caps?: SessionDeps['caps'];
}

/**
 * A session over `storage` (default: a new empty one), as a window that starts with it, whose
 * client talks to `gw` with its valid key and without retries.
 */
export function openSession(
  gw: SessionTarget,
  storage = new MemoryStorage(),
  options: OpenSessionOptions = {},
): OpenSession {
  const logs: string[] = [];
  const received: HostMessage[] = [];
  const clientFor = (apiKey: string | undefined) =>
    new GatewayClient({
      baseUrl: gw.url,
      apiKey,
      maxRetries: 0,
      log: (level, msg) => {
        if (level === 'warn' || level === 'error') logs.push(msg);
      },
      ...options.client,
    });
  const key = options.apiKey ?? (() => gw.keys.valid);
  let client = { key: key(), client: clientFor(key()) };
  const backend = () => {
    const now = key();
    if (now !== client.key) client = { key: now, client: clientFor(now) };
    return Promise.resolve(client.client);
  };
  const session = new ChatSession({
    store: new ConversationStore(storage),
    backend,
    settings: () => ({ ...SETTINGS, ...options.settings }),
    contextStorage: storage,
    ...(options.prompt ? { prompt: options.prompt } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.priceAnswer ? { priceAnswer: options.priceAnswer } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.caps ? { caps: options.caps } : {}),
    sink: {
      broadcast: (m) => received.push(structuredClone(m)),
      delta: (requestId, messageId, d) => received.push({ type: 'chat/delta', requestId, messageId, ...d }),
    },
    log: { warn: (m) => logs.push(m), error: (m) => logs.push(m) },
  });
  const timeoutMs = options.timeoutMs ?? 10_000;
  const until = async (pred: () => boolean, what: string) => {
    const end = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; logs: ${logs.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { session, storage, received, until, logs };
}

/** A copy of `storage` as it is now: what a window killed at this moment leaves behind. */
export function copyStorage(storage: MemoryStorage): MemoryStorage {
  const copy = new MemoryStorage();
  for (const key of storage.keys()) void copy.update(key, storage.get(key));
  return copy;
}

/** A question as the composer sends it: text, no images, no editor context. */
export function question(text: string): Question {
  return { text, images: [], contexts: [] };
}
