// ask_user's question card and the queued messages in the real bundle (headless Chromium): focus
// moves to the question, arrow keys, Enter and number keys answer, a free-text answer, the chosen
// option after the answer; Enter and Ctrl+Enter while an answer runs, the queue's edit, removal and
// Send now; both lazily loaded, and without serious or critical axe violations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage, HostMessage } from '../../src/shared/protocol';
import { axeViolations, describe } from './axe';
import { DEFAULT_PARAMS, openHarness, snapshot, useBrowser, type Harness } from './harness';

const browser = useBrowser();

const asking = (callId: string, args: Record<string, unknown>): AssistantMessage => ({
  id: `a-${callId}`,
  role: 'assistant',
  content: '',
  status: 'done',
  requestedModel: 'gw-chat',
  createdAt: 2,
  toolCalls: [{ id: callId, type: 'function', function: { name: 'ask_user', arguments: JSON.stringify(args) } }],
});

const card = (
  callId: string,
  args: Record<string, unknown>,
  state: 'running' | 'done',
  result?: string,
): HostMessage => ({
  type: 'tools/call',
  update: {
    callId,
    name: 'ask_user',
    argumentsJson: JSON.stringify(args),
    state,
    readOnly: true,
    ...(result !== undefined ? { resultPreview: result } : {}),
  },
});

const QUESTION = { question: 'Which database?', options: ['Postgres', 'SQLite', 'None'] };

async function ask(h: Harness, callId: string, args: Record<string, unknown> = QUESTION): Promise<void> {
  await h.send({ type: 'chat/message', requestId: 'r1', message: asking(callId, args) });
  await h.send(card(callId, args, 'running'));
  await h.page.locator(`[data-call-id="${callId}"] [role="radiogroup"]`).waitFor();
}

const focusedText = async (h: Harness) =>
  String(await h.page.evaluate('document.activeElement && document.activeElement.textContent'));
const radioFocused = (h: Harness) =>
  h.page.waitForFunction('document.activeElement && document.activeElement.getAttribute("role") === "radio"');
const answers = async (h: Harness) => (await h.posted()).filter((m) => m['type'] === 'tools/answer');

void test('the question takes focus; arrows move, Enter answers, the answered card shows the choice', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ busyRequestId: 'r1' }));
  await ask(h, 'k1');
  const group = h.page.locator('[data-call-id="k1"]').getByRole('radiogroup', { name: 'Which database?' });
  await radioFocused(h);
  assert.match(await focusedText(h), /Postgres/, 'focus moved to the first option');
  assert.match(await h.page.locator('[data-call-id="k1"] .tc-state').innerText(), /Waiting for your answer/);
  await h.page.keyboard.press('ArrowDown');
  assert.match(await focusedText(h), /SQLite/);
  assert.equal(await group.getByRole('radio', { name: /SQLite/ }).getAttribute('aria-checked'), 'true');
  await h.page.keyboard.press('ArrowUp');
  await h.page.keyboard.press('ArrowUp');
  assert.match(await focusedText(h), /None/, 'the arrows wrap around');
  await h.page.keyboard.press('Enter');
  assert.deepEqual(await answers(h), [{ type: 'tools/answer', callId: 'k1', answer: { choice: 2 } }]);
  await h.page.keyboard.press('Enter');
  assert.equal((await answers(h)).length, 1, 'answered once until the host says more');
  await h.send(card('k1', QUESTION, 'done', 'The user chose option 3: "None"'));
  assert.equal(await group.getByRole('radio', { name: /None/ }).getAttribute('aria-checked'), 'true');
  assert.equal(await group.getAttribute('aria-disabled'), 'true');
  await h.page.context().close();
});

void test('a number key answers with that option, a click too; an answer in the own words goes as text', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ busyRequestId: 'r1' }));
  await ask(h, 'n1');
  await radioFocused(h);
  await h.page.keyboard.press('7');
  assert.deepEqual(await answers(h), [], 'no option 7');
  await h.page.keyboard.press('2');
  assert.deepEqual(await answers(h), [{ type: 'tools/answer', callId: 'n1', answer: { choice: 1 } }]);
  await h.send(card('n1', QUESTION, 'done', 'The user chose option 2: "SQLite"'));

  await h.clearPosted();
  const free = { ...QUESTION, allowText: true };
  await ask(h, 'n2', free);
  const own = h.page.locator('[data-call-id="n2"]').getByRole('textbox', { name: 'Your own answer' });
  await own.fill('MariaDB, <b>please</b>');
  await own.press('Enter');
  assert.deepEqual(await answers(h), [
    { type: 'tools/answer', callId: 'n2', answer: { text: 'MariaDB, <b>please</b>' } },
  ]);
  await h.send(card('n2', free, 'running'));
  await h.page
    .locator('[data-call-id="n2"]')
    .getByRole('radio', { name: /Postgres/ })
    .click();
  assert.deepEqual((await answers(h)).at(-1), { type: 'tools/answer', callId: 'n2', answer: { choice: 0 } });
  await h.page.context().close();
});

void test('while an answer runs, Enter queues and Ctrl+Enter interrupts; the list edits, removes and sends', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ busyRequestId: 'r1' }));
  // The queue's chunk loads after the first paint; its hint says what Enter does now.
  await h.page.getByText('Enter queues your message until the current step ends', { exact: false }).waitFor();
  const box = h.page.getByRole('combobox', { name: 'Message' });
  await box.fill('also update the docs');
  await box.press('Enter');
  const queued = async () => (await h.posted()).filter((m) => String(m['type']).startsWith('queue/'));
  assert.deepEqual(await queued(), [{ type: 'queue/add', conversationId: 'c1', text: 'also update the docs' }]);
  assert.equal(await box.inputValue(), '', 'the box is emptied');
  await box.fill('stop, wrong file');
  await box.press('Control+Enter');
  assert.deepEqual((await queued()).at(-1), {
    type: 'queue/add',
    conversationId: 'c1',
    text: 'stop, wrong file',
    now: true,
  });

  await h.clearPosted();
  const items = [
    { id: 'q1', text: 'also update the docs', createdAt: 1 },
    { id: 'q2', text: 'and the changelog', createdAt: 2 },
  ];
  await h.send({ type: 'queue/list', conversationId: 'c1', items });
  const list = h.page.getByRole('region', { name: 'Queued messages' });
  assert.deepEqual(await list.getByRole('listitem').allInnerTexts(), ['also update the docs', 'and the changelog']);
  await list.getByRole('button', { name: 'Edit queued message 2' }).click();
  const edit = list.getByRole('textbox', { name: 'Edit queued message 2' });
  await edit.fill('and the changelog, briefly');
  await edit.press('Enter');
  await list.getByRole('button', { name: 'Remove queued message 1' }).click();
  await list.getByRole('button', { name: 'Stop and send now' }).click();
  assert.deepEqual(await queued(), [
    { type: 'queue/edit', conversationId: 'c1', id: 'q2', text: 'and the changelog, briefly' },
    { type: 'queue/remove', conversationId: 'c1', id: 'q1' },
    { type: 'queue/sendNow', conversationId: 'c1' },
  ]);

  // Another conversation shown (the answer stopped): its own, empty queue; back again, the first one's list.
  await h.send({ type: 'chat/done', requestId: 'r1' });
  const shown = (id: string): HostMessage => ({
    type: 'chat/conversation',
    conversation: { id, title: '', createdAt: 1, updatedAt: 1, model: '', params: {}, messages: [] },
    defaults: DEFAULT_PARAMS,
    defaultModel: 'gw-chat',
    defaultSystemPrompt: '',
  });
  await h.send(shown('c2'));
  assert.equal(await list.count(), 0, 'c2 has no queue and nothing runs: no list');
  await h.send(shown('c1'));
  assert.equal(await list.getByRole('listitem').count(), 2, 'the queue stayed with its conversation');
  assert.equal(await list.getByRole('button', { name: 'Send now', exact: true }).count(), 1, 'nothing runs: Send now');
  await h.page.context().close();
});

void test('the question card and the queue list have no serious or critical axe violations', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ busyRequestId: 'r1' }));
  await ask(h, 'x1', { ...QUESTION, allowText: true });
  await h.send({ type: 'queue/list', conversationId: 'c1', items: [{ id: 'q1', text: 'later', createdAt: 1 }] });
  await h.page.getByRole('region', { name: 'Queued messages' }).waitFor();
  await h.frames();
  const bad = (await axeViolations(h.page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.equal(describe(bad), describe([]));
  await h.page.context().close();
});
