import type { Page } from 'playwright-core';
import type { Journey } from './journey';
import { chatSettings, UI_TIMEOUT, type Workbench } from './workbench';

/** A step of the Gateway Studio walkthrough on VS Code's Welcome page, ticked or not. */
function step(page: Page, id: string, done: boolean) {
  return page.locator(
    `button.getting-started-step[data-step-id$="#gettingStarted#${id}"][aria-checked="${done ? 'true' : 'false'}"]`,
  );
}

async function openWalkthrough(wb: Workbench, page: Page): Promise<void> {
  await wb.runCommand('Welcome: Open Walkthrough...');
  await wb.pick('Get started with Gateway Studio');
  await page.locator('button.getting-started-step[data-step-id$="#gettingStarted#setApiKey"]').waitFor({
    state: 'attached',
    timeout: UI_TIMEOUT,
  });
}

export const journeys: Journey[] = [
  {
    name: 'walkthrough: on the Welcome page the key, connection and model steps tick themselves as the user does them',
    settings: chatSettings,
    async run({ wb, gw, page, shot }) {
      // The palette's Escape leaves the Welcome page, so it is opened again to read each step.
      await openWalkthrough(wb, page);
      await step(page, 'checkConnection', false).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await step(page, 'pickModel', false).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await wb.setApiKey(gw.keys.valid);
      await openWalkthrough(wb, page);
      await step(page, 'setApiKey', true).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await step(page, 'checkConnection', false).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await wb.runCommand('Gateway Studio: Check Connection');
      await wb.notification(/Connected to the gateway/);
      await openWalkthrough(wb, page);
      await step(page, 'checkConnection', true).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await wb.runCommand('Gateway Studio: Select Chat Model');
      await wb.pick('gw-reasoner');
      await wb.notification('chat model set to gw-reasoner');
      await openWalkthrough(wb, page);
      await step(page, 'pickModel', true).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await step(page, 'generateVideo', false).waitFor({ state: 'attached', timeout: UI_TIMEOUT });
      await shot('e2e-walkthrough');
    },
  },
];
