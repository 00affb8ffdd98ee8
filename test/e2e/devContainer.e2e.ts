import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { UI_TIMEOUT } from './workbench';

export const journeys: Journey[] = [
  {
    name: "a dev container's settings point the gateway at a second server: no request with the key reaches it until the user allows it, and the modal names the container's settings",
    settings: (gw) => ({ 'gatewayStudio.baseUrl': gw.url }),
    // What devcontainer.json's customizations.vscode.settings write on Reopen in Container.
    userData: (gw) => ({ 'Machine/settings.json': { 'gatewayStudio.baseUrl': gw.second.url } }),
    async run({ wb, gw, page, shot }) {
      const keyed = () => gw.second.requests().filter((r) => r.auth !== 'missing');
      await wb.setApiKey(gw.keys.valid);
      await wb.runCommand('Gateway Studio: Check Connection');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const asked = await dialog.innerText();
      assert.match(asked, /remote machine's settings set the gateway to http:\/\/127\.0\.0\.1:\d+/, asked);
      assert.match(asked, /devcontainer\.json/, asked);
      await shot('e2e-dev-container-gateway-question');
      assert.deepEqual(keyed(), [], 'a request with the key reached the second server before the answer');
      await dialog.locator('.monaco-button', { hasText: "Don't Send" }).click();
      await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
      const said = await (await wb.notification(/did not allow sending your API key there/)).innerText();
      assert.match(said, /remote machine's settings/, said);
      // Asked once and refused: later requests neither ask nor send.
      await wb.runCommand('Gateway Studio: Check Connection');
      await wb.notification(/did not allow sending your API key there/);
      assert.deepEqual(
        keyed().map((r) => r.path),
        [],
        'the refused server received a request with the key',
      );
      assert.equal(gw.second.requests().length, 0, 'the refused server received any request at all');
    },
  },
];
