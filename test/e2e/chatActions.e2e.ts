// Journeys for the chat's per-message and toolbar actions: Regenerate, Continue after a cut
// answer, Edit and resend, History across a window reload, and Export to Markdown. Each one
// checks both what the user sees in the panel and what the gateway actually received.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT, type Workbench } from './workbench';

/** One wire message as the gateway recorded it (only the fields these journeys read). */
interface WireMessage {
  role: string;
  content: unknown;
}

/** The chat completion requests the gateway received since the last reset, oldest first. */
function chatRequests(gw: HostGateway): { messages: WireMessage[]; max_tokens?: number }[] {
  return gw
    .requests()
    .filter((r) => r.method === 'POST' && r.route === '/v1/chat/completions')
    .map((r) => r.body as { messages: WireMessage[]; max_tokens?: number });
}

/** Waits until the gateway has received `n` chat requests (they are recorded as they arrive). */
async function waitForChatRequests(gw: HostGateway, n: number): Promise<ReturnType<typeof chatRequests>> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const reqs = chatRequests(gw);
    if (reqs.length >= n) return reqs;
    if (Date.now() > deadline) throw new Error(`the gateway received ${reqs.length} chat request(s), expected ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text of the last user message in a recorded request. */
function lastUserText(req: { messages: WireMessage[] }): string {
  const user = [...req.messages].reverse().find((m) => m.role === 'user');
  // Without the editor state the client adds after the conversation (issue 39: a cacheable prefix).
  return typeof user?.content === 'string'
    ? user.content.split('\n\n# Editor state')[0]!
    : JSON.stringify(user?.content);
}

/** Waits until the composer is idle again (the Send button replaces Stop when an answer ends). */
async function idle(chat: FrameLocator): Promise<void> {
  await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/**
 * Sends `text` and waits for its finished answer containing `expect` (by default the local
 * gateway's echo of it); returns that answer's message id.
 */
async function ask(chat: FrameLocator, text: string, expect = `Echo: ${text}`): Promise<string> {
  await sendMessage(chat, text);
  const answer = chat.locator('.msg.assistant', { has: chat.locator('.md', { hasText: expect }) }).last();
  await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await idle(chat);
  const id = await answer.getAttribute('data-message-id');
  assert.ok(id, 'the answer has no message id');
  return id;
}

/** Sets the valid key, empties the gateway's request log (so chatRequests() sees only this journey), and opens the chat panel. */
async function openChatWithKey(wb: Workbench, gw: HostGateway): Promise<FrameLocator> {
  await wb.setApiKey(gw.keys.valid);
  gw.resetCounts();
  return openChat(wb);
}

/** Starts editing the last user message: its Edit and resend button, then the edit banner. */
async function editLastQuestion(chat: FrameLocator): Promise<void> {
  await chat.locator('.msg.user').last().locator('button[aria-label="Edit and resend"]').click();
  await chat.locator('.edit-banner').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

export const journeys: Journey[] = [
  {
    name: 'chat actions: Regenerate replaces the last answer with a new one asked with the same conversation',
    share: 'chatActions',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      const chat = await openChatWithKey(wb, gw);
      const firstId = await ask(chat, 'name three prime numbers and say why each is prime');
      const [first] = await waitForChatRequests(gw, 1);
      assert.ok(first);

      // A slow stream keeps the new answer coming in for a few seconds: the old one must be gone
      // while it streams, not only swapped out at the end.
      gw.fault({ match: { path: '/v1/chat/completions' }, chunkDelayMs: 400 });
      await chat.locator(`.msg.assistant[data-message-id="${firstId}"] button[aria-label="Regenerate"]`).click();
      await chat
        .locator(`.msg.assistant[data-message-id="${firstId}"]`)
        .waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      await chat.locator('.msg.assistant .md', { hasText: 'Echo:' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const whileStreaming = await chat.locator('.msg.assistant').count();
      const stillBusy = await chat.locator('button[aria-label="Stop"]').isVisible();
      assert.ok(stillBusy, 'the regenerated answer had already finished; the slow stream did not apply');
      assert.equal(whileStreaming, 1, 'two answers were shown while the new one streamed');
      await idle(chat);

      const reqs = await waitForChatRequests(gw, 2);
      assert.equal(reqs.length, 2, 'Regenerate sent exactly one more request');
      // The same conversation: the question, without the answer being replaced.
      assert.deepEqual(reqs[1]?.messages, first.messages);
      assert.ok(
        !reqs[1]?.messages.some((m) => m.role === 'assistant'),
        'the regenerated request still carried the old answer',
      );

      const answers = chat.locator('.msg.assistant');
      assert.equal(await answers.count(), 1, 'the panel shows one answer for the question, not two');
      assert.equal(await chat.locator('.msg.user').count(), 1);
      const newId = await answers.first().getAttribute('data-message-id');
      assert.notEqual(newId, firstId, 'the answer shown is still the old one');
      assert.match(
        await answers.first().locator('.md').innerText(),
        /Echo: name three prime numbers and say why each is prime/,
      );
      await shot('e2e-chat-regenerated');
    },
  },
  {
    name: 'chat actions: an answer cut at max_tokens offers Continue, which sends the conversation again and appends the rest',
    share: 'chatActions',
    settings: (gw) => ({ ...chatSettings(gw), 'gatewayStudio.chat.maxTokens': 12 }),
    async run({ wb, gw, shot }) {
      const chat = await openChatWithKey(wb, gw);
      await sendMessage(chat, 'tell me a long story #long 200');
      const cut = chat.locator('.msg.assistant').last();
      await cut
        .locator('.notice', { hasText: 'finish reason: length' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await idle(chat);
      const cutText = (await cut.locator('.md').innerText()).trim();
      const cutWords = cutText.split(/\s+/).length;
      assert.ok(cutWords >= 8 && cutWords <= 12, `the cut answer has ${cutWords} words with max_tokens 12: ${cutText}`);
      const [first] = await waitForChatRequests(gw, 1);
      assert.equal(first?.max_tokens, 12, 'the max_tokens setting was sent');

      await cut.locator('button', { hasText: 'Continue' }).click();
      const reqs = await waitForChatRequests(gw, 2);
      const again = reqs[1];
      assert.ok(again);
      // The conversation goes again with the cut answer in it, then the request to go on.
      const roles = again.messages.map((m) => m.role);
      assert.deepEqual(roles.slice(-3), ['user', 'assistant', 'user']);
      assert.equal(again.messages.at(-2)?.content, cutText);
      assert.match(lastUserText(again), /continue/i);

      const continued = chat.locator('.msg.assistant').nth(1);
      await continued.locator('.md', { hasText: 'Echo: Continue' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await idle(chat);
      // The continuation comes after the cut text, which stays as it was.
      const order = await chat.locator('.msg.assistant .md').allInnerTexts();
      assert.equal(order.length, 2);
      assert.equal(order[0]?.trim(), cutText);
      assert.match(order[1] ?? '', /^Echo: Continue/);
      // It ended normally, so no Continue is offered any more.
      assert.equal(await chat.locator('button', { hasText: /^\s*Continue\s*$/ }).count(), 0);
      await shot('e2e-chat-continued');
    },
  },
  {
    name: 'chat actions: Edit and resend sends the edited text and the old answer is gone',
    share: 'chatActions',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      const chat = await openChatWithKey(wb, gw);
      await ask(chat, 'what is two plus two');
      await editLastQuestion(chat);
      const box = chat.locator('textarea[aria-label="Message"]');
      assert.equal(await box.inputValue(), 'what is two plus two', 'the composer holds the message being edited');
      await sendMessage(chat, 'what is three plus three');
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: what is three plus three' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await idle(chat);

      const reqs = await waitForChatRequests(gw, 2);
      assert.equal(reqs.length, 2);
      const resent = reqs[1];
      assert.ok(resent);
      assert.equal(lastUserText(resent), 'what is three plus three');
      const wire = JSON.stringify(resent.messages);
      assert.ok(!wire.includes('two plus two'), `the old question or answer went to the gateway again: ${wire}`);

      assert.deepEqual(await chat.locator('.msg.user .user-text').allInnerTexts(), ['what is three plus three']);
      const answers = await chat.locator('.msg.assistant .md').allInnerTexts();
      assert.equal(answers.length, 1, `expected one answer, the panel shows ${JSON.stringify(answers)}`);
      assert.ok(!answers[0]?.includes('two plus two'));
      assert.equal(await chat.locator('.edit-banner').isVisible(), false, 'the edit banner stayed after sending');
      await shot('e2e-chat-edited');
    },
  },
  {
    name: 'chat actions: an edit resent and cut off by a window reload mid-answer comes back edited, not as the old question',
    share: 'chatActions',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      let chat = await openChatWithKey(wb, gw);
      await ask(chat, 'what is two plus two');
      // A slow answer, so the reload lands while it is still streaming.
      gw.fault({ match: { path: '/v1/chat/completions' }, chunkDelayMs: 200 });
      await editLastQuestion(chat);
      await sendMessage(chat, 'what is three plus three #long 400');
      await chat
        .locator('.msg.assistant .md', { hasText: /\S/ })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.ok(await chat.locator('button[aria-label="Stop"]').isVisible(), 'the answer finished before the reload');

      await wb.reloadWindow();
      chat = await openChat(wb);
      await chat
        .locator('.msg.user .user-text', { hasText: 'what is three plus three' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.deepEqual(await chat.locator('.msg.user .user-text').allInnerTexts(), [
        'what is three plus three #long 400',
      ]);
      const answers = await chat.locator('.msg.assistant .md').allInnerTexts();
      assert.ok(
        !answers.some((a) => a.includes('two plus two')),
        `the old answer came back: ${JSON.stringify(answers)}`,
      );
      await shot('e2e-chat-edit-reloaded');
      gw.clearFaults();
    },
  },
  {
    name: 'chat actions: History survives a window reload; rename and open one conversation, delete another',
    settings: chatSettings,
    async run({ wb, gw, shot }) {
      let chat = await openChatWithKey(wb, gw);
      await ask(chat, 'alpha question about parsers');
      await chat.locator('button[aria-label="New chat"]').click();
      await chat.locator('.msg').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      await ask(chat, 'beta question about lexers');

      await wb.reloadWindow();
      chat = await openChat(wb);
      await chat.locator('button[aria-label="History"]').click();
      const list = chat.locator('.history-list');
      const alpha = list.locator('li', {
        has: chat.locator('.history-open', { hasText: 'alpha question about parsers' }),
      });
      const beta = list.locator('li', {
        has: chat.locator('.history-open', { hasText: 'beta question about lexers' }),
      });
      await alpha.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await beta.waitFor({ state: 'visible', timeout: UI_TIMEOUT });

      await alpha.locator('button[aria-label^="Rename"]').click();
      const name = chat.locator('.history-list input[aria-label="New name"]');
      await name.fill('Parser notes');
      await name.press('Enter');
      const renamed = list.locator('.history-open', { hasText: 'Parser notes' });
      await renamed.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(
        await list.locator('.history-open', { hasText: 'alpha question about parsers' }).count(),
        0,
        'the old name is still listed',
      );

      await renamed.click();
      await chat
        .locator('.msg.user .user-text', { hasText: 'alpha question about parsers' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await chat
        .locator('.msg.assistant .md', { hasText: 'Echo: alpha question about parsers' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.locator('.msg.user .user-text', { hasText: 'beta' }).count(), 0);

      await chat.locator('button[aria-label="History"]').click();
      const del = beta.locator('button[aria-label^="Delete"]');
      await del.click();
      // The first click arms the button (it asks again); the second deletes.
      await beta.locator('button.armed').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await beta.locator('button.armed').click();
      await beta.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      const titles = await list.locator('.history-open').allInnerTexts();
      assert.deepEqual(titles, ['Parser notes']);
      // Deleting the other one leaves the open conversation on screen.
      assert.equal(await chat.locator('.msg.user .user-text', { hasText: 'alpha question about parsers' }).count(), 1);
      await shot('e2e-chat-history');
    },
  },
  {
    name: 'chat actions: Export to Markdown writes a .md file with the question and the answer',
    share: 'chatActions',
    settings: chatSettings,
    async run({ wb, gw, cs, shot }) {
      const chat = await openChatWithKey(wb, gw);
      await ask(chat, 'Summarise the release plan');
      await chat.locator('button[aria-label="Export to Markdown"]').click();
      // In the browser the save dialog is VS Code's own path input, filled with the proposed name.
      const target = join(cs.workspace, 'Summarise the release plan.md');
      const deadline = Date.now() + UI_TIMEOUT;
      while ((await wb.quickInputBox.inputValue().catch(() => '')) !== target) {
        if (Date.now() > deadline)
          throw new Error(
            `the save dialog proposes "${await wb.quickInputBox.inputValue().catch(() => '')}", not ${target}`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
      await wb.quickInputBox.press('Enter');
      await wb.quickInput.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
      await wb.notification('Conversation exported to Summarise the release plan.md');

      assert.ok(existsSync(target), `no file at ${target}`);
      const md = readFileSync(target, 'utf8');
      assert.match(md, /^# Summarise the release plan$/m);
      assert.match(md, /^## You\n\nSummarise the release plan$/m);
      assert.match(md, /^## Assistant \(gw-chat\)\n\nEcho: Summarise the release plan$/m);

      await wb.clearNotifications();
      await wb.openFile('Summarise the release plan.md');
      await wb.page
        .locator('.monaco-editor .view-lines', { hasText: 'Echo: Summarise the release plan' })
        .first()
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-chat-exported');
    },
  },
];
