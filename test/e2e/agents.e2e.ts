// The chat's agents (issue 37 item 4), as a user meets them: Plan cannot change a file whatever
// the model does (the gateway is never offered a write tool, a forced call is refused and the
// file stays as it was), and "Start implementing" under Plan's answer continues in Agent.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

const ORIGINAL = 'export const answer = 41;\n';
const CHANGING = ['write_file', 'edit_file', 'run_command'];
const forcedWrite = JSON.stringify([
  { calls: [{ name: 'write_file', arguments: { path: 'src/answer.ts', content: 'export const answer = 42;\n' } }] },
  { text: 'Plan: 1. change src/answer.ts to 42. 2. run the tests.' },
]);

type ChatBody = { tools?: { function: { name: string } }[] };
const offered = (body: unknown): string[] => ((body as ChatBody).tools ?? []).map((t) => t.function.name);

/** Picks an agent in the header (its select comes with a chunk loaded after the first paint). */
async function pickAgent(chat: FrameLocator, id: string): Promise<void> {
  const select = chat.locator('select#agent');
  await select.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await select.selectOption(id);
}

export const journeys: Journey[] = [
  {
    name: 'agents: the Plan agent is asked to change a file and cannot (no write tool offered to the gateway, nothing written)',
    settings: chatSettings,
    files: { 'src/answer.ts': ORIGINAL },
    async run({ wb, gw, cs, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await pickAgent(chat, 'plan');
      const before = gw.requests().length;
      await sendMessage(chat, `change the answer to 42 #tools ${forcedWrite}`);
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Plan: 1. change src/answer.ts' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // The refused call's card says why (in its collapsed Result: textContent, not innerText,
      // which leaves out what a closed <details> hides); it was never offered for approval.
      const card = chat.locator('section.toolcard').first();
      assert.match(await card.innerText(), /Denied/);
      assert.match((await card.textContent()) ?? '', /not available to the Plan agent/);
      assert.equal(await card.locator('button', { hasText: /^\s*Allow\s*$/ }).count(), 0);

      const sent = gw
        .requests()
        .slice(before)
        .filter((r) => r.route === '/v1/chat/completions');
      assert.ok(sent.length >= 2, 'the refusal went back to the model');
      for (const r of sent) {
        const names = offered(r.body);
        assert.ok(names.includes('read_file'), `Plan reads: ${names.join(', ')}`);
        for (const c of CHANGING) assert.ok(!names.includes(c), `${c} was offered to the gateway`);
      }
      assert.equal(readFileSync(join(cs.workspace, 'src/answer.ts'), 'utf8'), ORIGINAL, 'nothing written');
      await shot('e2e-agents-plan-refused');
    },
  },
  {
    name: 'agents: Start implementing under the Plan answer continues in Agent with the plan, and Agent may edit again',
    settings: chatSettings,
    files: { 'src/answer.ts': ORIGINAL },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await pickAgent(chat, 'plan');
      await sendMessage(chat, '#say Plan: 1. change src/answer.ts to 42.');
      const plan = chat.locator('.msg.assistant', { hasText: 'Plan: 1. change src/answer.ts' }).last();
      await plan.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await plan.innerText(), /Plan/, 'the answer names its agent');
      const start = plan.locator('button', { hasText: /Start implementing/ });
      await start.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-agents-start-implementing');
      const before = gw.requests().length;
      await start.click();

      // The handoff's prompt is the next question, answered by Agent with the plan in the history.
      await chat
        .locator('.msg.user .user-text', { hasText: 'Implement the plan above.' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await chat.locator('.msg.assistant').nth(1).locator('.md').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chat.locator('select#agent').inputValue(), 'agent', 'the picker shows Agent');
      const [first] = gw
        .requests()
        .slice(before)
        .filter((r) => r.route === '/v1/chat/completions');
      const body = first?.body as { messages: { role: string; content: unknown }[] } & ChatBody;
      assert.ok(offered(body).includes('edit_file'), 'Agent has the changing tools again');
      assert.ok(
        body.messages.some(
          (m) => m.role === 'assistant' && String(m.content).includes('Plan: 1. change src/answer.ts'),
        ),
        'the plan is sent on',
      );
      assert.equal(
        await plan.locator('button', { hasText: /Start implementing/ }).count(),
        0,
        'only under the last answer',
      );
    },
  },
];
