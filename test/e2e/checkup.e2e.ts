// The relay check-up as a user runs it (issue 41): the command, the model picked, the cost shown
// before anything is sent, then the report beside its preview. The honest model gets no problem;
// the substituting one (test/gateway/checkup.ts: an o200k name counting with cl100k) gets the
// tokenizer's Problem with its evidence and the check-up's cost, which the ledger counted.
import * as assert from 'node:assert/strict';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { UI_TIMEOUT, type Workbench } from './workbench';

const settings = (gw: HostGateway): Record<string, unknown> => ({ 'gatewayStudio.baseUrl': gw.url });

async function checkups(gw: HostGateway, enabled: boolean): Promise<void> {
  const res = await fetch(`${gw.url}/__control/checkup`, { method: 'POST', body: JSON.stringify({ enabled }) });
  assert.ok(res.ok, `POST /__control/checkup answered ${res.status}`);
}

/** Runs the check-up of `model`: picks it, reads the cost question, runs, and returns the preview's text. */
async function checkUp(
  wb: Workbench,
  model: string,
  shot: (n: string) => Promise<void>,
): Promise<{ asked: string; report: string }> {
  await wb.runCommand('Gateway Studio: Check Up Relay');
  // Typed into the filter first: the list is longer than the widget shows, and a row below it is not drawn.
  // Once the check-up's own list is open (the palette's box is gone by then).
  await wb.quickInput.getByText('Check Up Relay: which models?').waitFor({ timeout: UI_TIMEOUT });
  await wb.quickInputBox.fill(model);
  const row = wb.quickInput
    .locator('.monaco-list-row')
    // Not matched exactly: the filter splits the label into highlighted parts.
    .filter({ hasText: model })
    .first();
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  // A click on the row ticks it, as a user does (the checkbox itself is drawn over a hidden input).
  await row.click();
  await wb.quickInput.getByText('1 Selected').waitFor({ timeout: UI_TIMEOUT });
  await wb.page.keyboard.press('Enter');
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const asked = await dialog.innerText();
  await shot(`e2e-checkup-cost-${model}`);
  await dialog.locator('.monaco-button', { hasText: 'Run Check-up' }).click();
  const preview = wb.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  const title = preview.locator('h1', { hasText: `Relay check-up: ${model}` });
  await title.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await shot(`e2e-checkup-report-${model}`);
  return { asked, report: await preview.locator('body').innerText() };
}

export const journeys: Journey[] = [
  {
    name: 'check-up: the honest model passes; the substituting one is named, with its evidence and the cost the ledger counted',
    settings,
    async run({ wb, gw, shot }) {
      await checkups(gw, true);
      try {
        await wb.setApiKey(gw.keys.valid);
        const honest = await checkUp(wb, 'gpt-4o-honest', shot);
        assert.match(honest.asked, /Every probe is a paid request/);
        assert.match(honest.asked, /Without the window probe: 15 requests, about \d+ tokens, about \$0\.00\d+/);
        assert.doesNotMatch(honest.report, /\bProblem\b/, honest.report);
        await wb.runCommand('View: Close All Editors');

        const before = gw.account().used;
        const swap = await checkUp(wb, 'gpt-4o-swap', shot);
        const charged = gw.account().used - before;
        assert.match(
          swap.report,
          /Tokenizer fingerprint\s+Problem\s+The counts match cl100k .* but the name claims o200k/,
          swap.report,
        );
        assert.match(swap.report, /Relay, tokens beyond the baseline: 20, 21, 49/);
        // The report's spend is the relay's charge, in dollars at its 500000 units a dollar.
        const spent = /Spent: 15 requests, \d+ prompt \+ \d+ completion tokens, \$(\d+\.\d+)/.exec(swap.report);
        assert.ok(spent, swap.report);
        assert.ok(Math.abs(Number(spent[1]) - charged / 500_000) < 1e-4, `report ${spent[1]} vs charged ${charged}`);
        const estimate = /Estimated before the run: .*\$(\d+\.\d+)/.exec(swap.report);
        assert.ok(estimate && Math.abs(Number(estimate[1]) * 500_000 - charged) <= charged * 0.2, swap.report);
      } finally {
        await checkups(gw, false);
      }
    },
  },
  {
    name: "check-up: the usage view's title-bar button checks up the active profile, the cost asked first",
    settings,
    async run({ wb, gw, shot }) {
      await checkups(gw, true);
      try {
        await wb.setApiKey(gw.keys.valid);
        await wb.runCommand('Gateway Studio: Show Usage');
        // The button shows only while the usage view's preview is the active tab.
        const button = wb.page.locator('.editor-actions a.action-label[aria-label^="Check Up Relay (Active Profile)"]');
        await button.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await shot('e2e-checkup-usage-button');
        await button.click();
        const row = wb.quickInput
          .locator('.monaco-list-row')
          .filter({ hasText: /^\s*gpt-4o-honest\s*$/ })
          .first();
        await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await row.click();
        await wb.page.keyboard.press('Enter');
        const dialog = wb.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        // No profile was asked: the active one is named, and "Cancel" sends nothing.
        const before = gw.account().used;
        assert.match(await dialog.innerText(), /Check up gpt-4o-honest on .+\? Every probe is a paid request/);
        await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
        assert.equal(gw.account().used, before);
      } finally {
        await checkups(gw, false);
      }
    },
  },
];
