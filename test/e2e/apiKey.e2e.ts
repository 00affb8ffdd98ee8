import * as assert from 'node:assert/strict';
import type { Journey } from './journey';

export const journeys: Journey[] = [
  {
    name: 'set the API key through the command palette in a password input, then clear it',
    async run({ wb, gw }) {
      await wb.runCommand('Gateway Studio: Set API Key');
      await wb.submitInput(gw.keys.valid, { password: true });
      await wb.notification('API key saved in secret storage');
      // The key never shows in the notifications the user sees.
      const texts = await wb.notificationTexts();
      assert.ok(!texts.some((t) => t.includes(gw.keys.valid)), 'the key was shown in a notification');
      await wb.runCommand('Gateway Studio: Clear API Key');
      await wb.notification('API key removed');
    },
  },
  {
    name: 'a key with spaces is refused in the input box with a message saying why',
    async run({ wb, page }) {
      await wb.runCommand('Gateway Studio: Set API Key');
      await wb.quickInputBox.waitFor({ state: 'visible' });
      await wb.quickInputBox.fill('my web password');
      await wb.quickInput.getByText(/contains spaces or line breaks/).waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
    },
  },
];
