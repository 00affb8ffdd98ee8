// The rules chips above the composer (webview/chat/components/RulesBar.tsx) in the real bundle: what
// they show for the host's `prompt/rules`, what switching and opening one posts, the
// untrusted-workspace notice with its Allow button, the size warning, and "Show what is sent".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newConversation } from '../../src/chat/history/core/store';
import type { HostMessage } from '../../src/shared/protocol';
import { DEFAULT_PARAMS, openHarness, snapshot, type Harness, useBrowser } from './harness';

const browser = useBrowser();

const RULES: HostMessage = {
  type: 'prompt/rules',
  rules: [
    { id: 'AGENTS.md', kind: 'agents', truncated: false },
    { id: '.gatewaystudio/rules/style.md', kind: 'rules', truncated: true },
  ],
  blocked: false,
  warnings: [
    'Rules file .gatewaystudio/rules/style.md is longer than 16000 characters: only its first 16000 characters are sent.',
  ],
};

async function open(disabled?: string[]): Promise<Harness> {
  const h = await openHarness(browser());
  const conversation = { ...newConversation(1), id: 'c-rules', ...(disabled ? { disabledRules: disabled } : {}) };
  await h.send(snapshot({ conversation }));
  await h.send(RULES);
  await h.frames();
  await h.clearPosted();
  return h;
}

void test('each rules file is a chip, checked unless switched off for this conversation', async () => {
  const h = await open(['.gatewaystudio/rules/style.md']);
  const chips = h.page.locator('.rule-chip');
  assert.equal(await chips.count(), 2);
  assert.equal(await chips.nth(0).locator('.rule-open').textContent(), 'AGENTS.md');
  assert.equal(await chips.nth(0).locator('input').isChecked(), true);
  assert.equal(await chips.nth(1).locator('input').isChecked(), false);
  assert.match((await chips.nth(1).getAttribute('class')) ?? '', /\boff\b/);
  assert.equal(
    await h.page
      .locator('.rules-warning')
      .textContent()
      .then((s) => s?.includes('style.md')),
    true,
  );
  await h.page.close();
});

void test('unchecking a chip asks the host to switch it off; its name opens the file', async () => {
  const h = await open();
  await h.page.locator('.rule-chip').nth(0).locator('input').uncheck();
  await h.page.locator('.rule-chip').nth(1).locator('.rule-open').click();
  const posted = await h.posted();
  assert.deepEqual(posted, [
    { type: 'prompt/setRuleEnabled', id: 'AGENTS.md', enabled: false },
    { type: 'prompt/openRule', id: '.gatewaystudio/rules/style.md' },
  ]);
  // The host answers with the conversation; the chip follows what is stored, not the click alone.
  await h.send({
    type: 'chat/conversation',
    conversation: { ...newConversation(1), id: 'c-rules', disabledRules: ['AGENTS.md'] },
    defaults: DEFAULT_PARAMS,
    defaultModel: 'gw-chat',
    defaultSystemPrompt: '',
  });
  await h.frames();
  assert.equal(await h.page.locator('.rule-chip').nth(0).locator('input').isChecked(), false);
  await h.page.close();
});

void test('in an untrusted workspace the panel says why the rules are not sent and offers to allow them', async () => {
  const h = await open();
  await h.send({ ...RULES, blocked: true } as HostMessage);
  await h.frames();
  assert.equal(await h.page.locator('.rule-chip').count(), 0, 'no chips claim rules are in effect');
  const notice = (await h.page.locator('.rules-blocked').textContent()) ?? '';
  assert.match(notice, /not trusted/);
  assert.match(notice, /prompt injection/);
  assert.match(notice, /AGENTS\.md/);
  await h.page.locator('.allow-rules').click();
  assert.deepEqual(await h.posted(), [{ type: 'prompt/allowUntrustedRules' }]);
  await h.page.close();
});

void test('"Show what is sent" asks the host to open the system prompt, with or without rules', async () => {
  const h = await open();
  await h.send({ type: 'prompt/rules', rules: [], blocked: false, warnings: [] });
  await h.frames();
  assert.equal(await h.page.locator('.rule-chip').count(), 0);
  await h.page.locator('.show-prompt').click();
  assert.deepEqual(await h.posted(), [{ type: 'prompt/show' }]);
  await h.page.close();
});

void test("a workspace's system prompt is a chip that says so, switched and opened like a rules file", async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: { ...newConversation(1), id: 'c-setting' } }));
  await h.send({
    type: 'prompt/rules',
    rules: [{ id: '.vscode/settings.json', kind: 'setting', truncated: false }],
    blocked: false,
    warnings: [],
  });
  await h.frames();
  await h.clearPosted();
  const chip = h.page.locator('.rule-chip');
  assert.equal(await chip.count(), 1);
  assert.equal(await chip.locator('.rule-open').textContent(), 'System prompt from .vscode/settings.json');
  assert.match((await chip.locator('.rule-open').getAttribute('title')) ?? '', /gatewayStudio\.chat\.systemPrompt/);
  await chip.locator('input').uncheck();
  await chip.locator('.rule-open').click();
  await h.frames();
  assert.deepEqual(await h.posted(), [
    { type: 'prompt/setRuleEnabled', id: '.vscode/settings.json', enabled: false },
    { type: 'prompt/openRule', id: '.vscode/settings.json' },
  ]);
  await h.page.close();
});
