// Renders media/icon.svg (drawn by hand for the extension) to media/icon.png, the 128x128 icon the
// Marketplace and the Extensions view show (package.json `icon`; vsce takes no SVG icon). Uses
// playwright-core with the browser the tests find ($GWS_BROWSER, else Debian's chromium):
//   node scripts/renderIcon.mjs
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('media/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: process.env.GWS_BROWSER || '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: 'media/icon.png', omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written (128x128)');
