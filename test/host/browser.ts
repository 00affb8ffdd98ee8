// A headless Chrome, Chromium or Edge already on the machine, through playwright-core (no browser
// download): Debian's chromium, another usual install, or the one $GWS_BROWSER names.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { browserPath, CHROMIUM_ARGS } from '../support/browserPath';
import { onCleanup } from './cleanup';
import { projectRoot } from './install';
import { watchMessages } from './keyScan';

/** Failure screenshots and final states of the main journeys land here (git-ignored). */
export const resultsDir = join(projectRoot, 'test-results');

// code-server's workbench in a container: /dev/shm is often too small for it.
const FLAGS = [...CHROMIUM_ARGS, '--disable-dev-shm-usage'];

/** Launches the browser; it is closed at cleanup even when the run fails. */
export async function launchBrowser(stage?: string): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: browserPath(stage ?? 'host'),
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
  // Every message a frame receives is checked for the API keys (the host stage's key scan).
  await watchMessages(context);
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
