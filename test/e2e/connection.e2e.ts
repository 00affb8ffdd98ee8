import * as assert from 'node:assert/strict';
import type { Journey } from './journey';

export const journeys: Journey[] = [
  {
    name: 'set the key and the base URL like a user, then Check Connection reports the gateway connected',
    share: 'assorted',
    async run({ wb, gw, shot }) {
      await wb.runCommand('Gateway Studio: Set API Key');
      await wb.submitInput(gw.keys.valid, { password: true });
      await wb.notification('API key saved');
      await wb.setTextSetting('gatewayStudio.baseUrl', gw.url);
      await wb.runCommand('Gateway Studio: Check Connection');
      const item = await wb.notification('Connected to the gateway');
      const text = await item.innerText();
      assert.match(text, /answered 200 OK/);
      assert.ok(text.includes(`${gw.url}/v1/models`), `the message names the URL called: ${text}`);
      await shot('e2e-check-connection-connected');
    },
  },
  {
    name: 'with a wrong key Check Connection shows the 401 message with a Set API Key button that opens the key input',
    share: 'assorted',
    settings: (gw) => ({ 'gatewayStudio.baseUrl': gw.url }),
    async run({ wb, shot }) {
      await wb.runCommand('Gateway Studio: Set API Key');
      await wb.submitInput('sk-wrong-key-0000', { password: true });
      await wb.notification('API key saved');
      await wb.runCommand('Gateway Studio: Check Connection');
      const item = await wb.notification('The API key was refused (401)');
      await shot('e2e-check-connection-401');
      const button = item.locator('.monaco-button', { hasText: 'Set API Key' });
      await button.click();
      await wb.quickInput.locator('.quick-input-box input[type="password"]').waitFor({ state: 'visible' });
    },
  },
];
