/**
 * Shared pieces of the unit tests: the local gateway's lifecycle as node:test hooks, and the
 * small fixtures and assertions several files had copied.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach } from 'node:test';
import { GatewayError } from '../../src/api/transport/errors';
import type { VideoClient } from '../../src/api/video/video';
import { newConversation } from '../../src/chat/history/core/store';
import { pollLoop } from '../../src/video/jobs/core/pollLoop';
import type { ChatParams, Conversation } from '../../src/shared/protocol';
import { DEFAULT_CHAT_PARAMS } from '../../src/shared/chatParams';
import { startGateway, type Gateway, type GatewayOptions } from '../gateway/server';

/** Options of {@link useGateway}: those of {@link startGateway}, and setup that needs the gateway. */
export interface UseGatewayOptions extends GatewayOptions {
  /**
   * Runs in the same `before` hook, right after the gateway started. Setup that reads the
   * gateway (its URL, its keys) belongs here when it would sit at a file's top level: there
   * node:test starts every `before` hook as soon as it is registered, without waiting for the
   * previous one, so a separate top-level `before` would run while the gateway is still starting.
   */
  onStarted?: (gw: Gateway) => void | Promise<void>;
}

/**
 * Starts the local gateway in a `before` hook, closes it in an `after` hook, and before each
 * test drops queued faults and clears counts and recorded requests, so a test never sees what
 * an earlier one left behind.
 *
 * Call it where the hooks belong (a file's top level, or inside a `describe`). The returned
 * object stands for the running gateway: its members may be used in every test, in `beforeEach`
 * and `after` hooks, and in `onStarted`. Using it while the gateway is not running throws,
 * naming the mistake, instead of failing later on an undefined URL.
 */
export function useGateway(options: UseGatewayOptions = {}): Gateway {
  const { onStarted, ...gatewayOptions } = options;
  let live: Gateway | undefined;
  before(async () => {
    live = await startGateway(gatewayOptions);
    await onStarted?.(live);
  });
  after(async () => {
    const gw = live;
    live = undefined;
    await gw?.close();
  });
  beforeEach(() => {
    live?.clearFaults();
    live?.resetCounts();
  });
  const current = (member: PropertyKey): Gateway => {
    if (!live)
      throw new Error(
        `useGateway(): gw.${String(member)} was used while the gateway is not running (setup at a file's top level that needs it goes in useGateway's onStarted)`,
      );
    return live;
  };
  // A proxy rather than a copy of the fields, so that members added to Gateway later work here
  // without an edit, and methods keep their receiver.
  return new Proxy({} as Gateway, {
    get(_target, member) {
      const gw = current(member);
      const value: unknown = Reflect.get(gw, member);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(gw) : value;
    },
    has: (_target, member) => Reflect.has(current(member), member),
  });
}

/** Awaits `p`, asserts that it rejects with a {@link GatewayError}, and returns that error. */
export async function gatewayFailure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof GatewayError, `expected a GatewayError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

/** Chat parameters as settings give them when the user set none (streaming on). */
export const UNSET_PARAMS: ChatParams = { ...DEFAULT_CHAT_PARAMS, stop: [] };

/**
 * A new conversation (created at time 1) holding one user message with `text` (id `u1`, no
 * images or contexts); `extra` overrides conversation fields such as `model` or `params`.
 */
export function userConversation(text: string, extra: Partial<Conversation> = {}): Conversation {
  const c = { ...newConversation(1), ...extra };
  c.messages.push({ id: 'u1', role: 'user', text, images: [], contexts: [], createdAt: 1 });
  return c;
}

/** The folder of {@link useTempDir}. */
export interface TempDir {
  /** The folder itself (made in `before`), with links resolved, as path checks of the code under test see it. */
  readonly path: string;
  /** Makes a new empty folder inside it, named `label-` and a random suffix, and returns its path. */
  fresh(label?: string): string;
}

/**
 * A folder under the system's temporary one for the tests where the hooks belong: made in
 * `before`, removed with everything in it in `after`, so files the tests write never outlive the
 * run. `onMade` fills it in the same hook (for the same reason as useGateway's `onStarted`).
 * Using it outside the tests and hooks throws, naming the mistake.
 */
export function useTempDir(prefix: string, options: { onMade?: (dir: string) => void | Promise<void> } = {}): TempDir {
  let made: string | undefined;
  before(async () => {
    made = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    await options.onMade?.(made);
  });
  after(() => {
    const dir = made;
    made = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const root = (): string => {
    if (!made)
      throw new Error(`useTempDir('${prefix}'): the folder was used while it does not exist (only in tests and hooks)`);
    return made;
  };
  return {
    get path() {
      return root();
    },
    fresh: (label = 'd') => mkdtempSync(join(root(), `${label}-`)),
  };
}

/**
 * Creates a task for the local gateway's video model with `prompt`, polls it (every 10 ms) until
 * it finished, asserts that it did, and returns its id.
 */
export async function finishedVideo(c: VideoClient, prompt: string): Promise<string> {
  const { id } = await c.create({ model: 'vendor-image-video', prompt });
  const polled = await pollLoop(c, id, { intervalMs: 10, limit: 200 });
  assert.equal(polled.kind, 'done', `video task ${id} finished within 200 polls`);
  return id;
}
