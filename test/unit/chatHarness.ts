/**
 * The chat controller's host logic in plain node: a minimal stand-in for the `vscode` module
 * (settings, events, l10n, window, workspace), resolved by `require('vscode')` through a
 * `Module._load` hook, the local gateway as the configured base URL, and the controller and store
 * modules loaded only after the stand-in is in place. Only what the controller touches on the
 * tested paths exists in the stand-in; a file that needs more passes it as options.
 *
 * node:test runs each test file in its own process, so the hook and the settings are per file.
 */
import Module from 'node:module';
import { after, before } from 'node:test';
import type { HostMessage, WebviewMessage } from '../../src/shared/protocol';
import type { Gateway } from '../gateway/server';
import { useGateway } from './helpers';

/** The controller module's type (a type-only import: loading it happens in a `before` hook). */
export type ControllerModule = typeof import('../../src/chat/view/controller');
/** The conversation store module's type. */
export type StoreModule = typeof import('../../src/chat/core/store');

type Listener<T> = (e: T) => void;

/** The part of `vscode.EventEmitter` the controller and the tests' webview stand-ins use. */
export class FakeEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class FakeDisposable {
  constructor(private readonly fn: () => void) {}
  dispose(): void {
    this.fn();
  }
}

/** A storage as the controller's `workspaceState`. */
export type Storage = InstanceType<StoreModule['MemoryStorage']>;

/** A controller attached to a stand-in webview, as {@link ChatHarness.open} returns it. */
export interface OpenController {
  readonly controller: InstanceType<ControllerModule['ChatController']>;
  readonly storage: Storage;
  /** Every message the controller posted to the webview, copied when posted. */
  readonly received: HostMessage[];
  /** Sends a message as the webview would. */
  post(m: WebviewMessage): void;
  /** Polls `pred` every 10 ms; past the timeout fails naming `what`, with the warnings logged. */
  until(pred: () => boolean, what: string): Promise<void>;
  /** The controller's warn and error log lines. */
  readonly logs: string[];
}

/** Options of {@link ChatHarness.open}. */
export interface OpenOptions {
  /** How long `until` waits (default 10 s). */
  timeoutMs?: number;
  /** Runs on the new controller before the webview is attached (e.g. a context added first). */
  beforeAttach?: (controller: OpenController['controller']) => void;
}

/** What a test file adds to (or replaces in) the stand-in's `window` and `workspace`. */
export interface ChatHarnessOptions {
  /** Extra `vscode.window` members, e.g. `showSaveDialog` for an export. */
  window?: Record<string, unknown>;
  /** Extra `vscode.workspace` members, e.g. an `fs.writeFile` that rejects. */
  workspace?: Record<string, unknown>;
}

/** The harness of one test file; module members throw until the `before` hook has loaded them. */
export interface ChatHarness {
  /** The local gateway (see `useGateway`). */
  readonly gw: Gateway;
  /** The settings `getConfiguration().get` answers from; `baseUrl` is the gateway's URL. */
  readonly settings: Record<string, unknown>;
  /** `src/chat/view/controller`, loaded after the stand-in was installed. */
  readonly controller: ControllerModule;
  /** `src/chat/core/store`, loaded in the same hook. */
  readonly store: StoreModule;
  /** A controller over `storage` (default: a new empty one) whose key is the gateway's valid key. */
  open(storage?: Storage, options?: OpenOptions): OpenController;
  /** A copy of `storage` as it is now: what a window killed at this moment leaves behind. */
  copy(storage: Storage): Storage;
}

const fill = (s: string, args: unknown[]) => s.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

/**
 * Installs the `vscode` stand-in now (call it at a test file's top level, before anything loads
 * the controller), starts the gateway with node:test hooks, and loads the controller and store in
 * a `before` hook. Settings start as: model `gw-chat`, no retries, base URL the gateway's.
 * The `after` hook restores the original module loader.
 */
export function useChatHarness(options: ChatHarnessOptions = {}): ChatHarness {
  const settings: Record<string, unknown> = {};
  const fakeVscode = {
    EventEmitter: FakeEmitter,
    Disposable: FakeDisposable,
    ConfigurationTarget: { Global: 1 },
    l10n: { t: (s: string, ...args: unknown[]) => fill(s, args), bundle: undefined },
    window: {
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: () => ({ dispose: () => undefined }),
      ...options.window,
    },
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: () => ({ get: <T>(key: string, fallback: T): T => (key in settings ? (settings[key] as T) : fallback) }),
      onDidChangeConfiguration: () => ({ dispose: () => undefined }),
      ...options.workspace,
    },
  };

  // Installed synchronously: the dynamic imports below (and anything they require) must see it.
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? fakeVscode : originalLoad.call(this, request, ...rest);
  };

  const gw = useGateway({
    onStarted: (started) => {
      settings.baseUrl = started.url;
    },
  });
  let controller: ControllerModule | undefined;
  let store: StoreModule | undefined;
  before(async () => {
    settings.chatModel = 'gw-chat';
    settings['network.maxRetries'] = 0;
    controller = (await import('../../src/chat/view/controller')) as ControllerModule;
    store = (await import('../../src/chat/core/store')) as StoreModule;
  });
  after(() => {
    loader._load = originalLoad;
  });

  const loaded = <M>(m: M | undefined, name: string): M => {
    if (!m) throw new Error(`useChatHarness(): ${name} was used before the before hook loaded it (use it inside a test or hook)`);
    return m;
  };
  const harness: ChatHarness = {
    gw,
    settings,
    get controller() {
      return loaded(controller, 'controller');
    },
    get store() {
      return loaded(store, 'store');
    },
    open(storage = new harness.store.MemoryStorage(), openOptions = {}) {
      const logs: string[] = [];
      const services = {
        context: { workspaceState: storage, subscriptions: [] },
        log: { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: (m: string) => logs.push(m), error: (m: unknown) => logs.push(String(m)), show: () => undefined },
        keys: { get: () => Promise.resolve(gw.keys.valid), onDidChange: () => ({ dispose: () => undefined }) },
      };
      // Only the services the controller reads on these paths exist, hence the cast.
      const ctl = new harness.controller.ChatController(services as never);
      openOptions.beforeAttach?.(ctl);
      const received: HostMessage[] = [];
      const incoming = new FakeEmitter<WebviewMessage>();
      ctl.attach({
        onDidReceiveMessage: incoming.event,
        postMessage: (m: HostMessage) => (received.push(structuredClone(m)), Promise.resolve(true)),
      } as never);
      const timeoutMs = openOptions.timeoutMs ?? 10_000;
      const until = async (pred: () => boolean, what: string) => {
        const end = Date.now() + timeoutMs;
        while (!pred()) {
          if (Date.now() > end) throw new Error(`timed out waiting for ${what}; logs: ${logs.join(' | ')}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      return { controller: ctl, storage, received, post: (m) => incoming.fire(m), until, logs };
    },
    copy(storage) {
      const copy = new harness.store.MemoryStorage();
      for (const key of storage.keys()) void copy.update(key, storage.get(key));
      return copy;
    },
  };
  return harness;
}
