// The `vsix` stage of `npm test` (issue 43): the .vsix as users get it. Packages it
// (scripts/packageVsix.mjs: the production build, no vsce warning, nothing a user does not need,
// every file the bundles load inside it, under its budget), installs it into a fresh code-server
// with `--install-extension` (its own empty extensions folder, no development path), and runs a
// short journey on it against the local gateway: the walkthrough opens, Set API Key, Check
// Connection, one streamed answer, one tool round trip (fetch_url: the web libraries load from
// the package), one video saved. A file the bundle needs but the .vsix lacks fails a step.
// Prints `vsix: N passed, M failed`; exits non-zero on any failure. Leaves the production build
// in dist/ (run it after the stages that use the development build; scripts/test.mjs does).
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { packageVsix } from '../../scripts/packageVsix.mjs';
import { startWebPages } from '../support/webPages';
import { openChat, sendMessage, UI_TIMEOUT, Workbench } from '../e2e/workbench';
import { launchBrowser, newPage, resultsDir, screenshot } from './browser';
import { cleanupAll } from './cleanup';
import { startCodeServer } from './codeServer';
import { startHostGateway, type HostGateway } from './gateway';
import { ensureHost, projectRoot } from './install';
import { keyScanReport, scanForKeys, scanTree } from './keyScan';

const VSIX = join(projectRoot, 'dist', 'gateway-studio.vsix');

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** One step of the journey, timed; a failure names the step. */
async function step(name: string, run: () => Promise<void>): Promise<void> {
  const t0 = Date.now();
  try {
    await run();
  } catch (e) {
    throw new Error(`${name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  say(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
}

/** The journey on the installed extension, as a new user takes it. */
async function journey(wb: Workbench, page: Page, gw: HostGateway, pagesBase: string): Promise<void> {
  await step('the walkthrough opens', async () => {
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.pick('Get started with Gateway Studio');
    await page
      .locator('button.getting-started-step[data-step-id$="#gettingStarted#setApiKey"]')
      .waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    // Closed again: its step's markdown is a webview of its own, which the chat's frame lookup
    // below (the one ready webview) once found beside the chat's and failed on.
    await wb.runCommand('View: Close All Editors');
    await page.locator('.getting-started-container').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  });
  await step('Set API Key', () => wb.setApiKey(gw.keys.valid));
  await step('Check Connection', async () => {
    await wb.runCommand('Gateway Studio: Check Connection');
    await wb.notification(/Connected to the gateway/);
    await wb.clearNotifications();
  });
  const chat = await openChat(wb);
  await step('one streamed answer', async () => {
    await sendMessage(chat, '#markdown');
    const answer = chat.locator('.msg.assistant').last();
    await answer.locator('.md table').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // highlight.js is a chunk of the page: it loads from the package, under the page's CSP.
    await answer.locator('.md pre code .hljs-keyword, .md pre code .hljs-string').first().waitFor({
      state: 'attached',
      timeout: UI_TIMEOUT,
    });
  });
  await step('one tool round trip (fetch_url)', async () => {
    const calls = [{ calls: [{ name: 'fetch_url', arguments: { url: `${pagesBase}/article` } }] }];
    await sendMessage(chat, `read the notes #tools ${JSON.stringify(calls)}`);
    const card = chat.locator('section.toolcard').last();
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
    const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: fetch_url=' }).last();
    await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await answer.innerText(), /fetch_url=Fetched http:\/\/127\.0\.0\.1:\d+\/article: HTTP 200, markdown/);
  });
  await step('one video saved', async () => {
    // Through the agent's generate_video tool: one card to allow, then the card follows the task.
    const calls = [
      { calls: [{ name: 'generate_video', arguments: { prompt: 'a kite', model: 'vendor-image-video' } }] },
    ];
    await sendMessage(chat, `make a video #tools ${JSON.stringify(calls)}`);
    const card = chat.locator('section.toolcard', { hasText: 'generate_video' }).last();
    await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
    const saved = card.locator('.tc-video.video-saved');
    await saved.waitFor({ state: 'visible', timeout: 120_000 });
    assert.match(await saved.innerText(), /videos\/a-kite.*\.mp4/);
  });
  await screenshot(page, 'vsix-installed-journey');
}

async function main(): Promise<number> {
  const t0 = Date.now();
  const secs = (): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const problems = packageVsix(projectRoot, VSIX);
  for (const p of problems) say(`vsix: ${p}`);
  if (problems.length) return 1;
  say(`vsix: packaged (${secs()})`);
  const install = await ensureHost();
  const gw = await startHostGateway({ videoSteps: 2, videoStepMs: 500 });
  scanForKeys({ ...gw.keys });
  const pages = await startWebPages();
  mkdirSync(resultsDir, { recursive: true });
  const cs = await startCodeServer({
    install,
    logFile: join(resultsDir, 'vsix-code-server.log'),
    label: 'vsix',
    installExtensions: [VSIX],
    settings: {
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.chatModel': 'gw-chat',
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
      'gatewayStudio.web.allowPrivateHosts': ['127.0.0.1'],
    },
  });
  say(`vsix: installed into a fresh code-server (${secs()})`);
  const browser = await launchBrowser('the vsix stage');
  const page = await newPage(browser);
  const consoleLog = join(resultsDir, 'vsix-console.log');
  page.on('console', (m) => appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
  const wb = new Workbench(page);
  try {
    // No development payload: the workbench runs what its extensions folder holds.
    await page.goto(cs.workbenchUrl(), { timeout: 180_000 });
    await wb.ready();
    await journey(wb, page, gw, pages.base);
  } catch (e) {
    const shot = await screenshot(page, 'vsix-failure');
    say(`  ✘ ${e instanceof Error ? e.message : String(e)}${shot ? `\n    screenshot: ${shot}` : ''}`);
    say('vsix: 0 passed, 1 failed');
    return 1;
  } finally {
    await pages.close();
    // The key scan (at stop) is of what the extension wrote: the package's own files are not, and
    // its README shows the local gateway's demo key.
    // (code-server may still be writing its own files beside it: retried on ENOTEMPTY).
    for (const name of readdirSync(join(cs.runDir, 'extensions')).filter((n) => n.startsWith('gateway-studio.')))
      rmSync(join(cs.runDir, 'extensions', name), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    await cs.stop();
  }
  scanTree(resultsDir, 'test-results');
  const scan = keyScanReport();
  for (const l of scan.lines) say(`vsix: ${l}`);
  say(`vsix: the installed .vsix passed its journey (${secs()})`);
  say(`vsix: ${scan.ok ? 2 : 1} passed, ${scan.ok ? 0 : 1} failed`);
  return scan.ok ? 0 : 1;
}

void main()
  .catch((e: unknown) => {
    say(`vsix stage failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    say('vsix: 0 passed, 1 failed');
    return 1;
  })
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  });
