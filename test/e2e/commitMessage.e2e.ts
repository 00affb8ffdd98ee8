// Commit messages like a user: a repository with two staged files, the sparkle button in the
// Source Control view's title, and the commit input filled with a message naming both files
// (the local gateway wraps its answer in a preamble and a fence, as real models do).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { Journey } from './journey';
import { UI_TIMEOUT } from './workbench';

export const journeys: Journey[] = [
  {
    name: 'the Source Control button fills the commit input with a message naming both staged files',
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.utilityModel': 'gw-chat',
      // The quiet settings turn Git off (test/host/codeServer.ts); this journey needs it.
      'git.enabled': true,
    }),
    async run({ page, wb, gw, cs, shot }) {
      const git = (...args: string[]): string => execFileSync('git', args, { cwd: cs.workspace, encoding: 'utf8' });
      git('init', '-q');
      git('config', 'user.email', 'test@example.invalid');
      git('config', 'user.name', 'Test');
      writeFileSync(join(cs.workspace, 'README.md'), '# demo\n');
      git('add', 'README.md');
      git('commit', '-q', '-m', 'chore: start the demo');
      writeFileSync(join(cs.workspace, 'alpha.ts'), 'export const alpha = 1;\n');
      writeFileSync(join(cs.workspace, 'beta.ts'), 'export const beta = 2;\n');
      git('add', 'alpha.ts', 'beta.ts');
      await wb.setApiKey(gw.keys.valid);

      const button = (): Locator => page.locator('a.action-label[aria-label^="Generate Commit Message"]').first();
      await wb.runCommand('Source Control: Focus on Changes View');
      // The repository was made after the window opened: Git's watcher finds it, else a reload does.
      const found = await button()
        .waitFor({ state: 'visible', timeout: 20_000 })
        .then(() => true)
        .catch(() => false);
      if (!found) {
        await wb.reloadWindow();
        await wb.runCommand('Source Control: Focus on Changes View');
        await button().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      }
      await button().click();

      const input = page.locator('.scm-editor .view-lines').first();
      let text = '';
      const deadline = Date.now() + UI_TIMEOUT;
      while (Date.now() < deadline) {
        text = (await input.innerText()).replace(/\u00a0/g, ' ');
        if (/alpha\.ts/.test(text) && /beta\.ts/.test(text) && /Touches 2/.test(text)) break;
        await page.waitForTimeout(200);
      }
      assert.match(text, /^feat: update alpha\.ts and beta\.ts/, `the commit input holds: ${JSON.stringify(text)}`);
      assert.doesNotMatch(text, /```|Here is/);
      await shot('e2e-commit-message');
      // The README's picture: the Source Control view with the generated message in its input.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-commit-message.png' });
      // Only filled: the repository still has its one commit.
      assert.equal(git('rev-list', '--count', 'HEAD').trim(), '1');
    },
  },
];
