// Hooks written for Claude Code work here: a PreToolUse hook in the workspace's
// .claude/settings.json, approved once in the modal, denies the model's run_command, and the
// tool card shows its reason. (Written with issue 37; run by the host e2e stage.)
import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const script = JSON.stringify([{ calls: [{ name: 'run_command', arguments: { command: 'echo should-not-run' } }] }]);

/** The hook: Claude Code's documented way to block, exit 2 with the reason on stderr. */
const denyHook = `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s);
  if (input.tool_name === 'Bash') {
    process.stderr.write('Commands are off in this repository (hook): ' + input.tool_input.command);
    process.exit(2);
  }
});
`;

export const journeys: Journey[] = [
  {
    name: 'hooks: a PreToolUse hook from .claude/settings.json denies a run_command and the card shows its reason',
    settings: chatSettings,
    files: {
      '.claude/settings.json': JSON.stringify(
        {
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/deny.js"', timeout: 20 }],
              },
            ],
          },
        },
        null,
        2,
      ),
      '.claude/hooks/deny.js': denyHook,
    },
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `run it #tools ${script}`);
      // The workspace's hooks run only after the user approved this file's content.
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const asked = await dialog.innerText();
      assert.match(asked, /\.claude\/settings\.json/);
      assert.match(asked, /PreToolUse \(Bash\): node/);
      await dialog.locator('.monaco-button', { hasText: 'Allow these hooks' }).click();
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await card.locator('.tc-state', { hasText: 'Denied' }).waitFor({ timeout: UI_TIMEOUT });
      const hooks = card.locator('details.tc-hooks');
      await hooks.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await hooks.innerText(), /Commands are off in this repository \(hook\): echo should-not-run/);
      assert.match(await hooks.innerText(), /exit 2/);
      // No approval was asked: the hook decided before the card would.
      assert.equal(await card.locator('.tc-actions').count(), 0);
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: run_command=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /blocked by the user's hooks/);
      await shot('e2e-hook-denied');
    },
  },
];
