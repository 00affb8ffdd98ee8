/**
 * Loads the real `dist/webview.js` + `dist/webview.css` in headless Chromium behind the same HTML
 * and CSP the extension serves, with a fake `acquireVsCodeApi` that records what the page posts.
 * Every request the page makes is recorded; only the bundle's own files are answered, anything
 * else is aborted and counted, so "zero network requests" can be asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { HostMessage } from '../../src/shared/protocol';
import { DEFAULT_CHAT_PARAMS } from '../../src/shared/chatParams';
import { WEBVIEW_STRINGS } from '../../src/shared/webviewStrings';
import { webviewHtml } from '../../src/shared/webviewHtml';
import { browserPath, CHROMIUM_ARGS } from '../support/browserPath';

export const ORIGIN = 'http://webview.harness';
/** Answered with the local gateway's sample MP4, the way an `asWebviewUri` link is. */
export const SAMPLE_VIDEO_URL = `${ORIGIN}/files/sample.mp4`;

/**
 * The page's globals as seen from functions passed to `page.evaluate` (they run in the browser;
 * this project's node type-check has no DOM lib, so the few members used are typed here).
 */
export interface PageElement {
  tagName: string;
  outerHTML: string;
  attributes: ArrayLike<{ name: string }> & Iterable<{ name: string }>;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
export interface PageGlobal {
  __posted: Array<Record<string, unknown>>;
  __state: unknown;
  __xssHits: number;
  __csp: string[];
  __first?: PageElement | null;
  postMessage(message: unknown, targetOrigin: string): void;
  requestAnimationFrame(cb: () => void): number;
  document: {
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
  };
}
const root = join(__dirname, '..', '..');
const dist = join(root, 'dist');
const SAMPLE_MP4_PATH = join(root, 'test', 'gateway', 'fixtures', 'sample.mp4');

export async function launch(): Promise<Browser> {
  if (!existsSync(join(dist, 'webview.js'))) throw new Error('dist/webview.js is missing: run `npm run build` first');
  return chromium.launch({ executablePath: browserPath('webview'), args: CHROMIUM_ARGS, headless: true });
}

/**
 * One browser for a test file's tests: launched before the first (by `start`, the page bundles'
 * Chromium unless told), closed after the last. Call it at the top of the file; the function it
 * returns is the browser while the tests run.
 */
export function useBrowser(start: () => Promise<Browser> = launch): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await start();
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is used outside a test (useBrowser launches it before the tests)');
    return browser;
  };
}

export interface Harness {
  page: Page;
  /** Requests to anything other than the page and its bundle files. */
  foreignRequests: string[];
  /** Messages the page posted to the "host", in order. */
  posted(): Promise<Array<Record<string, unknown>>>;
  clearPosted(): Promise<void>;
  /** Delivers a host message the way VS Code does (a window `message` event). */
  send(msg: HostMessage): Promise<void>;
  /** Waits for two animation frames, so a scheduled render has happened. */
  frames(): Promise<void>;
  /** Script executions caught by the traps (alert/confirm/prompt/print and `window.__xss()`). */
  xssCount(): Promise<number>;
  cspViolations(): Promise<string[]>;
}

export interface HarnessOptions {
  /** Serve the page without its CSP, to test the sanitiser on its own. */
  noCsp?: boolean;
  /** Webview state as `vscode.getState()` returns it (survives a reload). */
  state?: unknown;
  /** Awaited before a bundle file (`webview.js`, `webview-chunks/x.js`) is served: holds a chunk back. */
  beforeServe?: (file: string) => Promise<void>;
}

const INIT = (state: unknown) => `
  window.__posted = [];
  window.__state = ${JSON.stringify(state ?? null)};
  window.__xssHits = 0;
  window.__csp = [];
  window.__xss = () => { window.__xssHits++; };
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    Object.defineProperty(window, name, { value: () => { window.__xssHits++; }, writable: false });
  }
  document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => window.__state,
    setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); },
  });
`;

export async function openHarness(browser: Browser, o: HarnessOptions = {}): Promise<Harness> {
  const context = await browser.newContext({ viewport: { width: 420, height: 800 } });
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  const html = webviewHtml({
    cspSource: ORIGIN,
    nonce: 'harnessNonce123',
    scriptUri: `${ORIGIN}/dist/webview.js`,
    styleUri: `${ORIGIN}/dist/webview.css`,
    title: 'harness',
    // As the extension serves the chat page: a video tool's card plays the saved file.
    media: true,
    module: true,
  });
  const page0 = o.noCsp ? html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '') : html;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === `${ORIGIN}/` || url === `${ORIGIN}/index.html`) {
      return route.fulfill({ status: 200, contentType: 'text/html', body: page0 });
    }
    if (url.split('?')[0] === SAMPLE_VIDEO_URL) {
      return route.fulfill({ status: 200, contentType: 'video/mp4', body: readFileSync(SAMPLE_MP4_PATH) });
    }
    // The bundle's files and its chunks (dist/webview-chunks/, loaded with import()).
    const m = /^http:\/\/webview\.harness\/dist\/((?:webview-chunks\/)?[\w.-]+?)(\?.*)?$/.exec(url);
    if (m?.[1] && existsSync(join(dist, m[1]))) {
      const file = m[1];
      await o.beforeServe?.(file);
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'font/ttf';
      return route.fulfill({ status: 200, contentType: type, body: readFileSync(join(dist, file)) });
    }
    foreignRequests.push(url);
    return route.abort();
  });
  // Requests the router never sees (e.g. blocked by CSP before leaving) still show up here.
  page.on('request', (r) => {
    if (!r.url().startsWith(`${ORIGIN}/`) && !foreignRequests.includes(r.url())) foreignRequests.push(r.url());
  });
  await page.addInitScript(INIT(o.state));
  await page.goto(`${ORIGIN}/`);
  // Polled with evaluate, not waitForFunction: the latter compiles its predicate with eval,
  // which the page's CSP refuses (and reports as a violation).
  for (let i = 0; ; i++) {
    const ready = await page.evaluate(() =>
      (globalThis as unknown as PageGlobal).__posted.some((m) => m.type === 'webview/ready'),
    );
    if (ready) break;
    if (i > 200) throw new Error('the webview never posted webview/ready');
    await new Promise((r) => setTimeout(r, 25));
  }
  const h: Harness = {
    page,
    foreignRequests,
    posted: () => page.evaluate(() => (globalThis as unknown as PageGlobal).__posted),
    clearPosted: () => page.evaluate(() => void ((globalThis as unknown as PageGlobal).__posted.length = 0)),
    send: (msg) =>
      page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), msg).then(() => h.frames()),
    frames: () =>
      page.evaluate(
        () =>
          new Promise<void>((r) =>
            (globalThis as unknown as PageGlobal).requestAnimationFrame(() =>
              (globalThis as unknown as PageGlobal).requestAnimationFrame(() => setTimeout(r, 0)),
            ),
          ),
      ),
    xssCount: () => page.evaluate(() => (globalThis as unknown as PageGlobal).__xssHits),
    cspViolations: () => page.evaluate(() => (globalThis as unknown as PageGlobal).__csp),
  };
  return h;
}

/** Localised strings as the host would send them (here: English identity). */
export const STRINGS = Object.fromEntries(WEBVIEW_STRINGS.map((k) => [k, k]));

export const DEFAULT_PARAMS = { ...DEFAULT_CHAT_PARAMS, stop: [] };

/** A `chat/snapshot` with an empty (or given) conversation. */
export function snapshot(extra: Partial<Extract<HostMessage, { type: 'chat/snapshot' }>> = {}): HostMessage {
  return {
    type: 'chat/snapshot',
    conversation: { id: 'c1', title: '', createdAt: 1, updatedAt: 1, model: '', params: {}, messages: [] },
    defaults: DEFAULT_PARAMS,
    defaultModel: 'gw-chat',
    defaultSystemPrompt: '',
    strings: STRINGS,
    maxImageBytes: 5 * 1024 * 1024,
    ...extra,
  };
}

/**
 * The element's rendered text once it matches `re` (5 s at most), else its last text: what a user
 * sees after the frame that lays it out. Text inside `content-visibility: auto` (segments of long
 * reasoning and code) is laid out only at the next frame, which a loaded machine delays.
 */
export async function shownText(el: Locator, re: RegExp): Promise<string> {
  let text = '';
  for (const deadline = Date.now() + 5000; ;) {
    text = await el.innerText();
    if (re.test(text) || Date.now() > deadline) return text;
    await el.page().waitForTimeout(25);
  }
}
