// Headless Debian Chromium through playwright-core (no browser download: the system binary).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { onCleanup } from './cleanup';
import { CHROMIUM_PATH, projectRoot } from './install';

/** Failure screenshots and final states of the main journeys land here (git-ignored). */
export const resultsDir = join(projectRoot, 'test-results');

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launches Chromium; it is closed at cleanup even when the run fails. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    timeout: 120_000,
    // Our own handlers stop everything in order (code-server first); Playwright's would exit early.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onCleanup('chromium', async () => {
    await browser.close().catch(() => undefined);
  });
  return browser;
}

/** A fresh page in its own context (its own localStorage, so SecretStorage starts empty). */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** Saves a PNG under test-results/ and returns its path; never throws (it runs on failure paths). */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  try {
    await page.screenshot({ path: file, timeout: 15_000 });
    return file;
  } catch {
    return undefined;
  }
}
