// The product in Simplified Chinese, as a user with VS Code's display language zh-cn sees it.
// How VS Code picks the extension's files (read in code-server 4.139's server and checked here):
// the display language comes from `--locale`, else the user data's argv.json `"locale"` (what
// Configure Display Language writes), else a cookie or Accept-Language. It only takes effect when
// a language pack for it is installed: without one the server resolves the language to `en`, the
// workbench and the extension host get `en`, and the extension stays English whatever the
// locale. With a pack, `vscode.env.language` is `zh-cn` and VS Code loads package.nls.zh-cn.json
// (palette, settings) and l10n/bundle.l10n.zh-cn.json (`l10n.t`). The marketplace's Chinese pack
// cannot be downloaded here, so the journey registers a stand-in pack that declares zh-cn and
// translates nothing of VS Code: every Chinese word on screen is the extension's own.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Journey } from './journey';
import { chatSettings, UI_TIMEOUT } from './workbench';

const root = join(__dirname, '..', '..');
const read = (p: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, p), 'utf8')) as Record<string, string>;
const nlsEn = read('package.nls.json');
const nlsZh = read('package.nls.zh-cn.json');
const bundleZh = read('l10n/bundle.l10n.zh-cn.json');

/** The Chinese of an English `l10n.t` string (fails loudly when the file lacks it). */
function zh(english: string): string {
  const s = bundleZh[english];
  if (!s) throw new Error(`no zh-cn translation for ${JSON.stringify(english)}`);
  return s;
}
const command = (key: string): string => `Gateway Studio: ${nlsZh[key]!}`;

/**
 * What installing a language pack leaves in the user data folder, for zh-cn: `languagepacks.json`
 * naming the pack's translations of VS Code. Ours translate nothing (`contents` is empty), so the
 * workbench keeps its English words and every Chinese word on screen is the extension's own.
 * (The CLI's `--install-extension` of a pack does not write this file; the server would, too late
 * for the first page, whose language it caches.)
 */
const zhLanguagePack = {
  'zh-cn': {
    hash: 'gws-test-zh-cn',
    extensions: [{ extensionIdentifier: { id: 'gateway-studio-test.language-pack-zh-cn' }, version: '0.0.1' }],
    translations: { vscode: join(__dirname, 'fixtures', 'vscode-zh-cn.i18n.json') },
    label: '中文(简体)',
  },
};

export const journeys: Journey[] = [
  {
    name: 'zh-cn: with the display language zh-cn the palette, the chat panel, a 401 error and a notification are in Chinese',
    // argv.json's locale is what Configure Display Language writes.
    userData: { 'User/argv.json': { locale: 'zh-cn' }, 'languagepacks.json': zhLanguagePack },
    readyCommand: command('command.showLog'),
    settings: chatSettings,
    async run({ wb, page, shot }) {
      // The palette: the extension's commands under their Chinese titles, none in English.
      await page.keyboard.press('F1');
      await wb.quickInputBox.fill('>Gateway Studio: ');
      const rows = wb.quickInput.locator('.monaco-list-row');
      await rows.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // A row's first label is the title; VS Code adds the English original under a localised
      // one (so either can be typed), which is the second.
      const shown: string[] = [];
      for (const row of await rows.all()) shown.push((await row.locator('.label-name').first().innerText()).trim());
      const zhTitles = new Set(
        Object.keys(nlsZh)
          .filter((k) => k.startsWith('command.'))
          .map(command),
      );
      const enTitles = new Set(Object.keys(nlsEn).map((k) => `Gateway Studio: ${nlsEn[k]!}`));
      // Rows VS Code makes itself ("Focus on 聊天 View") keep the workbench's English around our names.
      const ours = shown.filter((s) => zhTitles.has(s));
      assert.ok(ours.length >= 5, `Chinese titles among the rows: ${JSON.stringify(shown)}`);
      for (const s of shown) assert.ok(!enTitles.has(s), `English command title: ${s}`);
      await shot('e2e-zh-cn-palette');
      await page.keyboard.press('Escape');

      // A notification: the key is saved (a wrong one, for the error below).
      await wb.runCommand(command('command.setApiKey'));
      await wb.submitInput('sk-wrong-key-0000', { password: true });
      await wb.notification(zh('Gateway Studio: API key saved in secret storage.'));
      await wb.clearNotifications();

      // The chat panel: its page is zh-cn and its controls have Chinese names.
      await wb.runCommand(command('command.openChat'));
      const chat = wb.webview();
      const box = chat.locator(`textarea[aria-label="${zh('Message')}"]`);
      await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.locator('html').getAttribute('lang'), 'zh-cn');
      assert.equal(await box.getAttribute('placeholder'), zh('Ask about your code, or paste an image…'));
      await chat.locator(`button[aria-label="${zh('Send')}"]`).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await chat
        .locator(`[aria-label="${zh('Model')}"]`)
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });

      // An error from the gateway client (src/api, through @vscode/l10n): the 401 names the key.
      await box.fill('你好');
      await box.press('Enter');
      const error = chat.locator('.error').last();
      await error
        .locator('.error-title', { hasText: zh('The API key was refused (401)') })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await error.innerText(), /密钥/);
      await error.locator('.error-actions button', { hasText: zh('Set API Key') }).waitFor({ state: 'visible' });
      await shot('e2e-zh-cn-chat-401');
    },
  },
];
