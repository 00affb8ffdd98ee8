/**
 * The one browser lookup of the webview tests, the host stages and the benches: Debian's chromium,
 * another Chrome/Chromium/Edge, or $GWS_BROWSER, as scripts/ensureSetup.mjs finds it (the setup
 * scripts use that search directly), and the flags every headless launch passes.
 */
import { findBrowser, noBrowserMessage } from '../../scripts/ensureSetup.mjs';

/** Flags for a headless run on a CI machine: no sandbox or GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The browser's executable; throws, naming what was searched and how to fix it, when there is none. */
export function browserPath(stage: string): string {
  const found = findBrowser();
  if (found.path === undefined) throw new Error(noBrowserMessage([stage], found));
  return found.path;
}
