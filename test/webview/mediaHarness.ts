/**
 * The storyboard's media modules (webview/storyboard/media) in headless Chromium: bundled by
 * esbuild the way the build bundles them, exposed as `window.__media`, on an https origin (a
 * secure context, as a VS Code webview is: WebCodecs exists only there). Fixtures are served
 * from test/gateway/fixtures at /fixtures/<name>; every other request is aborted and recorded.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { browserPath, CHROMIUM_ARGS } from '../support/browserPath';

export const MEDIA_ORIGIN = 'https://media.harness';
const root = join(__dirname, '..', '..');
export const FIXTURES = join(root, 'test', 'gateway', 'fixtures');

const ENTRY = `
import { lastFramePng } from './lastFrame';
import { reencodeClips } from './reencode';
import { exportGif, describeGif } from './gif';
import { h, render } from 'preact';
import { ExportPanel } from '../ExportPanel';
window.__media = { lastFramePng, reencodeClips, exportGif, describeGif };
// The export panel with recording callbacks: __stitchAnswer is what the "host" answers a join.
window.__saved = [];
window.__mountPanel = (takes) => {
  const main = document.createElement('main');
  main.innerHTML = '<h1>Board</h1>';
  const root = document.createElement('div');
  main.append(root);
  document.body.append(main);
  render(
    h(ExportPanel, {
      takes,
      onStitch: async () => window.__stitchAnswer,
      onSave: async (kind, bytes) => {
        window.__saved.push({ kind, size: bytes.length, head: Array.from(bytes.slice(0, 8)) });
        return { ok: true, file: 'demo.storyboard/' + (kind === 'gif' ? 'film.gif' : 'film-reencoded.mp4') };
      },
    }),
    root,
  );
};
`;

let bundled: string | undefined;
async function bundle(): Promise<string> {
  if (bundled) return bundled;
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: join(root, 'webview', 'storyboard', 'media'), loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
  });
  bundled = out.outputFiles[0]!.text;
  return bundled;
}

export async function launchMedia(): Promise<Browser> {
  return chromium.launch({ executablePath: browserPath('webview'), args: CHROMIUM_ARGS, headless: true });
}

export interface MediaPage {
  page: Page;
  foreignRequests: string[];
}

export async function openMedia(browser: Browser): Promise<MediaPage> {
  const js = await bundle();
  const context = await browser.newContext();
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === `${MEDIA_ORIGIN}/`) {
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><meta charset="utf-8"><title>media</title><script src="/media.js"></script></html>',
      });
    }
    if (url === `${MEDIA_ORIGIN}/media.js`) return route.fulfill({ contentType: 'text/javascript', body: js });
    const m = /^https:\/\/media\.harness\/fixtures\/([\w.-]+)$/.exec(url);
    if (m && existsSync(join(FIXTURES, m[1]!))) {
      return route.fulfill({ contentType: 'application/octet-stream', body: readFileSync(join(FIXTURES, m[1]!)) });
    }
    foreignRequests.push(url);
    return route.abort();
  });
  // tsx names the functions a test passes to `page.evaluate` with its `__name` helper.
  await page.addInitScript('window.__name = (f) => f;');
  await page.goto(`${MEDIA_ORIGIN}/`);
  return { page, foreignRequests };
}
