/**
 * Loads the real media pages (`dist/gallery.js`, `dist/storyboard.js` and their CSS) in headless
 * Chromium behind the HTML and CSP the extension serves (with `media-src`), a fake
 * `acquireVsCodeApi` that records what the page posts, and videos served as "webview resources"
 * from the same origin. Anything else is aborted and recorded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { GalleryHostMessage, GalleryTask } from '../../src/shared/protocol/gallery';
import { webviewHtml } from '../../src/shared/webviewHtml';
import type { PageGlobal } from './harness';

export const ORIGIN = 'http://webview.harness';
const root = join(__dirname, '..', '..');
const dist = join(root, 'dist');
export const SAMPLE_MP4 = readFileSync(join(root, 'test', 'gateway', 'fixtures', 'sample.mp4'));
/** A URL the harness answers with the sample MP4 (the way `asWebviewUri` links are answered). */
export const VIDEO_URL = `${ORIGIN}/files/sample.mp4`;
/** A URL answered with bytes that no browser decodes, as video/mp4. */
export const BROKEN_URL = `${ORIGIN}/files/broken.mp4`;

/** A media page (the gallery, a storyboard) loaded behind the extension's HTML and CSP. */
export interface MediaPageHarness<In> {
  page: Page;
  foreignRequests: string[];
  posted(): Promise<Array<Record<string, unknown>>>;
  /** Delivers a host message and waits for the frame it renders. */
  send(msg: In): Promise<void>;
  cspViolations(): Promise<string[]>;
  /** Waits until the page has posted a message of `type` (at most `timeoutMs`). */
  until(type: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export type GalleryHarness = MediaPageHarness<GalleryHostMessage>;

const INIT = `
  window.__posted = [];
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => null,
    setState: () => undefined,
  });
`;

export interface MediaPageOptions {
  /** dist/<bundle>.js and .css. */
  bundle: 'gallery' | 'storyboard';
  /** The bundle is an ES module split into chunks (under dist/<bundle>-chunks/). */
  module?: boolean;
  viewport: { width: number; height: number };
  /** Files the page may load as "webview resources" (with CORS, as VS Code answers), by URL. */
  files?: Record<string, Buffer>;
}

/**
 * Opens a media page with a fake `acquireVsCodeApi` that records what the page posts; the bundle's
 * files and `files` are answered, anything else is aborted and recorded.
 */
export async function openMediaPage<In>(browser: Browser, o: MediaPageOptions): Promise<MediaPageHarness<In>> {
  if (!existsSync(join(dist, `${o.bundle}.js`)))
    throw new Error(`dist/${o.bundle}.js is missing: run \`npm run build\` first`);
  const context = await browser.newContext({ viewport: o.viewport });
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  const html = webviewHtml({
    cspSource: ORIGIN,
    nonce: `${o.bundle}Nonce123`,
    scriptUri: `${ORIGIN}/dist/${o.bundle}.js`,
    styleUri: `${ORIGIN}/dist/${o.bundle}.css`,
    title: o.bundle,
    media: true,
    ...(o.module ? { module: true } : {}),
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url().split('?')[0] ?? '';
    if (url === `${ORIGIN}/`) return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    const file = o.files?.[url];
    if (file)
      return route.fulfill({
        status: 200,
        contentType: 'video/mp4',
        headers: { 'access-control-allow-origin': '*' },
        body: file,
      });
    // The bundle's files, and its chunks in a folder below dist/.
    const m = /^http:\/\/webview\.harness\/dist\/([\w./-]+)$/.exec(url);
    if (m?.[1] && !m[1].includes('..') && existsSync(join(dist, m[1]))) {
      return route.fulfill({
        status: 200,
        contentType: m[1].endsWith('.js') ? 'text/javascript' : 'text/css',
        body: readFileSync(join(dist, m[1])),
      });
    }
    foreignRequests.push(url);
    return route.abort();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(`${ORIGIN}/`) && !foreignRequests.includes(r.url())) foreignRequests.push(r.url());
  });
  await page.addInitScript(INIT);
  await page.goto(`${ORIGIN}/`);
  const posted = () => page.evaluate(() => (globalThis as unknown as PageGlobal).__posted);
  return {
    page,
    foreignRequests,
    posted,
    send: async (msg) => {
      await page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), msg);
      await page.evaluate(
        () =>
          new Promise<void>((r) => (globalThis as unknown as PageGlobal).requestAnimationFrame(() => setTimeout(r, 0))),
      );
    },
    cspViolations: () => page.evaluate(() => (globalThis as unknown as PageGlobal).__csp),
    until: async (type, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = (await posted()).find((m) => m.type === type);
        if (hit) return hit;
        if (Date.now() > deadline)
          throw new Error(
            `the ${o.bundle} page never posted ${type}; it posted ${JSON.stringify((await posted()).map((m) => m.type))}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

export async function openGallery(browser: Browser): Promise<GalleryHarness> {
  const h = await openMediaPage<GalleryHostMessage>(browser, {
    bundle: 'gallery',
    viewport: { width: 420, height: 900 },
    files: { [VIDEO_URL]: SAMPLE_MP4, [BROKEN_URL]: Buffer.from('not a video at all') },
  });
  await h.until('webview/ready');
  return h;
}

/** A task as the host sends it; `over` changes any field. */
export function task(over: Partial<GalleryTask> & { key: string }): GalleryTask {
  return {
    prompt: `prompt of ${over.key}`,
    model: 'vendor-image-video',
    seconds: 4,
    aspectRatio: '16:9',
    resolution: '720p',
    images: [],
    state: 'saved',
    stateLabel: 'saved',
    createdAt: Date.UTC(2026, 10, 23, 2, 0),
    running: false,
    canResume: false,
    ...over,
  };
}
