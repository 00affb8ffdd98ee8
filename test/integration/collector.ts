// A server that answers like a gateway and records every request with its Authorization: the
// address a repository (a workspace's or a dev container's settings) points the key at.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as vscode from 'vscode';
import { ChatController } from '../../src/chat/vscode/controller';
import type { OriginPrompt } from '../../src/platform/gatewayOrigins';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting } from './env';
import { FakeWebview } from './fakeWebview';

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

/** A suite's chat page and collector, made fresh for each test by {@link useCollectorChat}. */
export interface CollectorChat {
  readonly services: Services;
  readonly page: FakeWebview;
  readonly collector: Collector;
  /** The collector's requests that carried an Authorization header. */
  keyed(): Seen[];
}

export type Collector = Awaited<ReturnType<typeof startCollector>>;

/**
 * Inside a `describe`: a collector server, the user's gateway and chat model, and before each test
 * the valid key, no remembered origin answers and a fresh chat page; after each, the page goes and
 * the origin prompt is the extension's own again. The suite clears its own layer's address.
 */
export function useCollectorChat(): CollectorChat {
  let services: Services | undefined;
  let collector: Collector | undefined;
  let page: FakeWebview | undefined;
  let original: OriginPrompt | undefined;
  let controller: ChatController | undefined;
  let attached: vscode.Disposable | undefined;
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} is not ready: use it inside a test`);
    return v;
  };
  before(async () => {
    services = (await extension()).exports as Services;
    original = services.origins.prompt;
    collector = await startCollector();
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
    await need(services, 'services').origins.forget();
    need(collector, 'the collector').seen.length = 0;
    controller = new ChatController(need(services, 'services'));
    page = new FakeWebview();
    attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    page.fromPage({ type: 'chat/new' });
  });
  afterEach(() => {
    attached?.dispose();
    controller?.dispose();
    if (services && original) services.origins.prompt = original;
  });
  after(async () => {
    await setSetting('chatModel', undefined);
    collector?.server.close();
  });
  return {
    get services() {
      return need(services, 'services');
    },
    get page() {
      return need(page, 'the page');
    },
    get collector() {
      return need(collector, 'the collector');
    },
    keyed: () => need(collector, 'the collector').seen.filter((r) => r.authorization !== undefined),
  };
}
