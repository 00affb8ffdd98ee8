import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const readScript = (path: string) => JSON.stringify([{ calls: [{ name: 'read_file', arguments: { path } }] }]);

/** The gateway's reasoning for every reasoning model (test/gateway/chat.ts). */
const REASONING = /I will answer plainly and check each step before replying\./;

/**
 * The answer `answer` is in shows its reasoning as the user sees it once the answer is done: a
 * "Thought for N s" block, folded, that opens onto the model's reasoning; and no `<think>` tag in
 * the answer text.
 */
async function thinkingShown(answer: ReturnType<FrameLocator['locator']>, model: string): Promise<void> {
  const details = answer.locator('details.reasoning');
  const summary = details.locator('summary', { hasText: /Thought for \d+ s/ });
  await summary.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.equal(await details.getAttribute('open'), null, `${model}: folded once the answer is done`);
  await summary.click();
  await details
    .locator('pre.reasoning-text', { hasText: REASONING })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  assert.doesNotMatch(await answer.locator('.md').innerText(), /think>/, `${model}: no tag in the answer`);
  await summary.click();
}

/** The last answer whose text contains `text`. */
function answerWith(chat: FrameLocator, text: string): ReturnType<FrameLocator['locator']> {
  return chat
    .locator('.msg.assistant')
    .filter({ has: chat.locator('.md', { hasText: text }) })
    .last();
}

/** Chooses the conversation's model in the chat header, as a user would. */
async function chooseModel(chat: FrameLocator, id: string): Promise<void> {
  const model = chat.locator('input[aria-label="Model"]');
  await model.fill(id);
  await model.press('Tab');
}

/** Allows the `n`th tool card of the conversation (0-based) once it shows. */
async function allowTool(chat: FrameLocator, n: number): Promise<void> {
  const card = chat.locator('section.toolcard').nth(n);
  await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
}

export const journeys: Journey[] = [
  {
    name: 'responses and reasoning: a responses-only model answers with a tool round trip; thinking is shown for all four dialects; a DeepSeek-style tool turn succeeds with its reasoning sent back',
    share: 'tools',
    settings: (gw) => ({ ...chatSettings(gw), 'gatewayStudio.chatModel': 'gw-codex' }),
    files: {
      'notes/plan.txt': 'Plan: ship the responses demo on Friday.\n',
      'notes/deep.txt': 'Deep notes: replay the reasoning on tool turns.\n',
    },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await sendMessage(chat, `read my plan #tools ${readScript('notes/plan.txt')}`);
      await allowTool(chat, 0);
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Done. Tool results: read_file=' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await answer.innerText(), /ship the responses demo/);
      // The chat refused it once (404, responses only); every later request went to /v1/responses.
      const counts = gw.counts();
      assert.ok((counts['POST /v1/chat/completions'] ?? 0) >= 1, JSON.stringify(counts));
      assert.ok((counts['POST /v1/responses'] ?? 0) >= 2, JSON.stringify(counts));
      const thinking = chat.locator('.msg.assistant details.reasoning summary', { hasText: /Thought for/ }).first();
      await thinking.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-responses-tool-round-trip');

      // reasoning_content (DeepSeek): a tool turn, whose follow-up the gateway refuses with a 400
      // unless the call's reasoning_content comes back with it.
      await chooseModel(chat, 'gw-deepseek');
      await sendMessage(chat, `read my deep notes #tools ${readScript('notes/deep.txt')}`);
      await allowTool(chat, 1);
      // Found by the tool's result in its text: the answer before it says "Done. Tool results" too.
      const deep = answerWith(chat, 'Deep notes: replay the reasoning');
      await deep.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await deep.locator('.md').innerText(), /^Done\. Tool results: read_file=.*Deep notes/s);
      await thinkingShown(deep, 'gw-deepseek');
      type Sent = {
        model?: string;
        messages?: { role: string; content?: unknown; tool_calls?: unknown[]; reasoning_content?: unknown }[];
      };
      // The editor state follows a tool result as a user message of its own (issue 39): looked past.
      const lastTalk = (b: Sent) =>
        b.messages?.filter((m) => !(m.role === 'user' && String(m.content).startsWith('# Editor state'))).at(-1);
      const followUps = gw
        .requests()
        .filter((r) => r.route === '/v1/chat/completions')
        .map((r) => r.body as Sent)
        // Those answering a tool result (the earlier turns' tool results are in every later request).
        .filter((b) => b.model === 'gw-deepseek' && lastTalk(b)?.role === 'tool');
      assert.equal(followUps.length, 1, 'one follow-up after the tool ran: not refused, not retried');
      const turn = followUps[0]!.messages!.filter((m) => m.role === 'assistant' && m.tool_calls?.length).at(-1);
      assert.match(String(turn?.reasoning_content), REASONING, 'the call went back with its reasoning_content');

      // reasoning (vLLM, OpenRouter), reasoning_details[] (OpenRouter), <think> tags in the content.
      for (const model of ['gw-reasoning', 'gw-details', 'gw-think']) {
        await chooseModel(chat, model);
        await sendMessage(chat, `think it over with ${model}`);
        const last = answerWith(chat, `Echo: think it over with ${model}`);
        await last.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await thinkingShown(last, model);
      }
      await shot('e2e-reasoning-four-dialects');
    },
  },
];
