import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MentionItem, UserMessage } from '../../src/shared/protocol';
import { openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * The @-picker in the real bundle: the host's side is played here by answering each
 * `mentions/query` the page posts with a fixed list of rows, as the extension does.
 */

const browser = useBrowser();

const ROWS: MentionItem[] = [
  { kind: 'problems', label: 'Problems', detail: 'the whole workspace', ref: '' },
  { kind: 'changes', label: 'Changes', detail: 'git working tree', ref: '' },
  { kind: 'file', label: 'README.md', ref: 'file:///w/README.md' },
  { kind: 'file', label: 'src/chat/view/controller.ts', ref: 'file:///w/src/chat/view/controller.ts' },
  { kind: 'file', label: 'src/util/strings.ts', ref: 'file:///w/src/util/strings.ts' },
  { kind: 'folder', label: 'src/chat/', ref: 'file:///w/src/chat' },
];

async function open(): Promise<Harness> {
  const h = await openHarness(browser());
  await h.send(snapshot());
  return h;
}

/** Answers the page's latest query with the rows, the way the host does. */
async function answer(h: Harness, rows = ROWS): Promise<string> {
  const queries = (await h.posted()).filter((m) => m.type === 'mentions/query');
  const last = queries.at(-1);
  assert.ok(last, 'the page asked the host for rows');
  await h.send({ type: 'mentions/results', queryId: String(last.queryId), items: rows });
  await h.frames();
  return String(last.query);
}

async function options(h: Harness): Promise<string[]> {
  return h.page.locator('#mention-picker [role="option"] .mention-label').allInnerTexts();
}

void test('typing @ opens a listbox the message box controls; the query goes to the host', async () => {
  const h = await open();
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('look at @');
  assert.equal(await answer(h), '');
  await h.page.locator('#mention-picker[role="listbox"]').waitFor({ state: 'visible' });
  assert.equal(await box.getAttribute('role'), 'combobox');
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.getAttribute('aria-controls'), 'mention-picker');
  assert.equal(await box.getAttribute('aria-activedescendant'), 'mention-opt-0');
  assert.equal((await options(h)).length, ROWS.length);
  assert.equal(await h.page.locator('#mention-opt-0').getAttribute('aria-selected'), 'true');
});

void test('the rows are ranked fuzzily as the user types, before the host answers again', async () => {
  const h = await open();
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('@');
  await answer(h);
  await box.pressSequentially('cvc');
  await h.frames();
  // Only the path whose word starts spell c-v-c ("chat/view/controller") matches.
  assert.deepEqual(await options(h), ['src/chat/view/controller.ts']);
  const queries = (await h.posted()).filter((m) => m.type === 'mentions/query').map((m) => m.query);
  assert.deepEqual(queries.slice(-3), ['c', 'cv', 'cvc']);
});

void test('arrows move the active row, Enter picks it: the @query leaves the text and a chip appears', async () => {
  const h = await open();
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('explain @rea');
  await answer(h, ROWS);
  assert.deepEqual(await options(h), ['README.md']);
  await h.send({ type: 'mentions/results', queryId: 'old', items: [] });
  await box.press('Backspace');
  await box.press('Backspace');
  await box.press('Backspace');
  await answer(h);
  await box.press('ArrowDown');
  await box.press('ArrowDown');
  await h.frames();
  assert.equal(await box.getAttribute('aria-activedescendant'), 'mention-opt-2');
  await box.press('ArrowUp');
  await box.press('Enter');
  await h.frames();
  assert.equal(await box.inputValue(), 'explain ');
  assert.equal(await h.page.locator('#mention-picker').count(), 0);
  const chip = h.page.locator('.composer .mention-chip');
  assert.deepEqual(await chip.allInnerTexts(), ['Changes']);
  assert.equal(await chip.locator('button').getAttribute('aria-label'), 'Remove mention: Changes: Changes');
  // Enter picked; it did not send.
  assert.equal((await h.posted()).filter((m) => m.type === 'chat/send').length, 0);
});

void test('Tab picks too, and Send carries the chips as mentions and clears them', async () => {
  const h = await open();
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('@strings');
  await answer(h);
  await box.press('Tab');
  await box.pressSequentially('what is this?');
  await box.press('Enter');
  await h.frames();
  const sent = (await h.posted()).find((m) => m.type === 'chat/send');
  assert.equal(sent?.text, 'what is this?');
  assert.deepEqual(sent?.mentions, [
    { kind: 'file', label: 'src/util/strings.ts', ref: 'file:///w/src/util/strings.ts' },
  ]);
  assert.equal(await h.page.locator('.composer .mention-chip').count(), 0);
});

void test('Escape closes the picker and keeps the text as typed; it does not stop a running answer', async () => {
  const h = await open();
  await h.send({ type: 'chat/busy', requestId: 'r-running' });
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('mail me @');
  await answer(h);
  await box.press('Escape');
  await h.frames();
  assert.equal(await h.page.locator('#mention-picker').count(), 0);
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  assert.equal(await box.inputValue(), 'mail me @');
  assert.equal((await h.posted()).filter((m) => m.type === 'chat/cancel').length, 0);
});

void test('an @ inside a word (an e-mail address) does not open the picker', async () => {
  const h = await open();
  const box = h.page.locator('textarea.input');
  await box.click();
  await box.pressSequentially('write to ann@example.org');
  await h.frames();
  assert.equal(await h.page.locator('#mention-picker').count(), 0);
  assert.equal((await h.posted()).filter((m) => m.type === 'mentions/query').length, 0);
});

void test('files dropped from the explorer go to the host as URIs; chips the host sends appear', async () => {
  const h = await open();
  await h.page.evaluate(() => {
    const g = globalThis as unknown as {
      DataTransfer: new () => { setData(t: string, v: string): void };
      DragEvent: new (type: string, init: unknown) => unknown;
      document: { querySelector(s: string): { dispatchEvent(e: unknown): void } };
    };
    const dt = new g.DataTransfer();
    dt.setData('application/vnd.code.uri-list', 'file:///w/a.ts\r\nfile:///w/b.ts');
    g.document
      .querySelector('.composer')!
      .dispatchEvent(new g.DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const drop = (await h.posted()).find((m) => m.type === 'mentions/drop');
  assert.deepEqual(drop?.uris, ['file:///w/a.ts', 'file:///w/b.ts']);
  await h.send({
    type: 'mentions/add',
    items: [{ kind: 'file', label: 'a.ts', ref: 'file:///w/a.ts' }],
    problems: ['b.ts was not found.'],
  });
  await h.frames();
  assert.deepEqual(await h.page.locator('.composer .mention-chip').allInnerTexts(), ['a.ts']);
  assert.match(await h.page.locator('.composer-notes').innerText(), /b\.ts was not found/);
});

void test('a sent message shows its attachments as chips, with lines and a truncation mark', async () => {
  const h = await open();
  const m: UserMessage = {
    id: 'u1',
    role: 'user',
    text: 'why?',
    images: [],
    contexts: [],
    attachments: [
      {
        kind: 'selection',
        label: 'src/a.ts',
        path: 'src/a.ts',
        startLine: 3,
        endLine: 9,
        text: 'x',
        truncated: true,
        originalChars: 9,
      },
      { kind: 'changes', label: 'Changes', text: '', note: 'No git repository is open in this workspace.' },
    ],
    createdAt: 1,
  };
  await h.send({ type: 'chat/message', message: m });
  await h.frames();
  const chips = h.page.locator('article[data-message-id="u1"] .mention-chip');
  assert.equal(await chips.count(), 2);
  assert.equal(await chips.nth(0).getAttribute('aria-label'), 'Attached: Selection: src/a.ts:3-9 (truncated)');
  assert.equal(await chips.nth(1).getAttribute('title'), 'No git repository is open in this workspace.');
});
