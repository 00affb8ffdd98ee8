// The chat page is split (esbuild.js): its first paint loads dist/webview.js and the chunks it
// imports statically; highlight.js, the panels and the tool cards are chunks loaded on first use,
// under the page's CSP (`script-src 'nonce-…'`: a module's imports inherit its nonce). Each
// test checks what was loaded and that what shows while a chunk is on its way is right.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage } from '../../src/shared/protocol';
import { openHarness, snapshot, type Harness, useBrowser } from './harness';

const browser = useBrowser();

/** The bundle files the page has loaded, as `webview.js` or `webview-chunks/<name>`, hash removed. */
async function loaded(h: Harness): Promise<string[]> {
  const urls = await h.page.evaluate(
    'performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith(".js"))',
  );
  return (urls as string[]).map((u) => u.replace(/^.*\/dist\//, '').replace(/-[A-Z0-9]{8}\.js$/, ''));
}

/** A gate: `held` resolves when `open()` is called. */
function gate(): { held: Promise<void>; open: () => void } {
  let open = () => {};
  const held = new Promise<void>((r) => (open = r));
  return { held, open };
}

const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: '',
  status: 'done',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

void test('an answer with code: shown plain until highlight.js is loaded, which only the first code block does', async () => {
  const highlight = gate();
  const h = await openHarness(browser(), {
    beforeServe: (f) => (f.startsWith('webview-chunks/highlight-') ? highlight.held : Promise.resolve()),
  });
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r0', message: answer('a0', { content: 'Just *prose*.' }) });
  assert.ok(!(await loaded(h)).includes('webview-chunks/highlight'), 'highlight.js loaded without code');
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: answer('a1', { content: 'Code:\n\n```ts\nconst a: number = 1;\n```\n' }),
  });
  const code = h.page.locator('article[data-message-id="a1"] .md pre code');
  assert.equal(await code.innerText(), 'const a: number = 1;\n', 'the code is shown, plain, while highlight.js loads');
  assert.equal(await code.locator('.hljs-keyword').count(), 0);
  assert.equal(
    await h.page.locator('article[data-message-id="a1"] [role="group"][aria-label="Code block"]').count(),
    1,
  );
  highlight.open();
  await code.locator('.hljs-keyword').first().waitFor({ timeout: 5000 });
  assert.equal(await code.innerText(), 'const a: number = 1;\n', 'the code itself is unchanged');
  assert.ok((await loaded(h)).includes('webview-chunks/highlight'));
  assert.deepEqual(await h.cspViolations(), []);
  assert.deepEqual(h.foreignRequests, []);
  await h.page.context().close();
});

void test('a panel opens only once its chunk is here, then takes focus; the first paint loads no panel', async () => {
  const panels = gate();
  const h = await openHarness(browser(), {
    beforeServe: (f) => (f.startsWith('webview-chunks/panels-') ? panels.held : Promise.resolve()),
  });
  await h.send(snapshot());
  assert.ok(!(await loaded(h)).includes('webview-chunks/panels'), 'a panel loaded before it was asked for');
  await h.page.locator('button[aria-label="Conversation settings"]').focus();
  await h.page.keyboard.press('Enter');
  await h.frames();
  assert.equal(await h.page.locator('.panel').isHidden(), true, 'an empty panel was shown');
  panels.open();
  const panel = h.page.getByRole('region', { name: 'Conversation settings' });
  await panel.waitFor({ timeout: 5000 });
  await h.frames();
  const inPanel = await h.page.evaluate('Boolean(document.activeElement && document.activeElement.closest(".panel"))');
  assert.equal(inPanel, true, 'focus went into the panel once it showed');
  assert.deepEqual(await h.cspViolations(), []);
  await h.page.context().close();
});

void test('a tool card asking for approval while its chunk loads shows when it is here, with focus on Allow', async () => {
  const cards = gate();
  const h = await openHarness(browser(), {
    beforeServe: (f) => (f.startsWith('webview-chunks/ToolCard-') ? cards.held : Promise.resolve()),
  });
  await h.send(snapshot());
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: answer('a1', {
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
    }),
  });
  await h.send({
    type: 'tools/call',
    update: {
      callId: 'c1',
      name: 'read_file',
      argumentsJson: '{"path":"a.txt"}',
      state: 'awaiting-approval',
      readOnly: true,
    },
  });
  assert.equal(await h.page.locator('section.toolcard').count(), 0, 'a card without its code');
  cards.open();
  const allow = h.page.locator('section.toolcard[data-call-id="c1"] button', { hasText: 'Allow' }).first();
  await allow.waitFor({ timeout: 5000 });
  await h.frames();
  const focused = await h.page.evaluate('document.activeElement && document.activeElement.textContent');
  assert.match(String(focused), /Allow/);
  // The arguments are highlighted once highlight.js is here (the card asked for it).
  await h.page
    .locator('section.toolcard .tc-args code .hljs-attr')
    .first()
    .waitFor({ state: 'attached', timeout: 5000 });
  assert.deepEqual(await h.cspViolations(), []);
  await h.page.context().close();
});

void test('an @ typed while the picker chunk loads asks the host at once; its rows show, ranked, when the chunk is here', async () => {
  const picker = gate();
  const h = await openHarness(browser(), {
    beforeServe: (f) => (f.startsWith('webview-chunks/MentionPicker-') ? picker.held : Promise.resolve()),
  });
  await h.send(snapshot());
  assert.ok(!(await loaded(h)).includes('webview-chunks/MentionPicker'), 'the picker loaded at first paint');
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('@rdm');
  await h.frames();
  const queries = (await h.posted()).filter((m) => m.type === 'mentions/query');
  assert.equal(queries.at(-1)?.query, 'rdm', 'the query went to the host without waiting for the chunk');
  await h.send({
    type: 'mentions/results',
    queryId: String(queries.at(-1)?.queryId),
    items: [
      { kind: 'file', label: 'src/other.ts', ref: 'file:///w/src/other.ts' },
      { kind: 'file', label: 'README.md', ref: 'file:///w/README.md' },
    ],
  });
  assert.equal(await h.page.locator('#mention-picker').count(), 0, 'a listbox without its code');
  picker.open();
  const rows = h.page.locator('#mention-picker [role="option"] .mention-label');
  await rows.first().waitFor({ timeout: 5000 });
  // Ranked by the fuzzy scorer once it is here: only README.md spells r-d-m.
  assert.deepEqual(await rows.allInnerTexts(), ['README.md']);
  await h.page.keyboard.press('Enter');
  await h.page.locator('.mention-chip', { hasText: 'README.md' }).waitFor({ timeout: 5000 });
  assert.deepEqual(await h.cspViolations(), []);
  await h.page.context().close();
});

void test('the cost lines load on the first cost: none in the first paint, the line once its chunk is here', async () => {
  const costs = gate();
  const h = await openHarness(browser(), {
    beforeServe: (f) => (f.startsWith('webview-chunks/CostNote-') ? costs.held : Promise.resolve()),
  });
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1', { content: 'priced' }) });
  await h.frames();
  assert.ok(!(await loaded(h)).includes('webview-chunks/CostNote'), 'the cost code loaded without a cost');
  await h.send({
    type: 'chat/cost',
    conversationId: 'c1',
    messageId: 'a1',
    cost: {
      quota: 500_000,
      unit: { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' },
      estimate: false,
    },
  });
  costs.open();
  const line = h.page.locator('article[data-message-id="a1"] .cost');
  await line.waitFor({ timeout: 5000 });
  assert.match(await line.innerText(), /\$1\.00/);
  await h.page.context().close();
});
