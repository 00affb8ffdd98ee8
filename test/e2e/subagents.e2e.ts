// Subagents (issue 42 item 1), as a user meets them: the parent calls Explore, which runs on a
// second model of the local gateway (gw-latest, the user's utility model) in its own context;
// the run_subagent card shows the run's progress and its cost (the gateway's prices, read with
// the balance), and the parent's next request carries Explore's summary, not its transcript.
import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { openChat, sendMessage, UI_TIMEOUT } from './workbench';

const ALL_ENDPOINTS_OK = {
  status: 'ok',
  'usage-token': 'ok',
  pricing: 'ok',
  'log-token': 'ok',
  subscription: 'ok',
  usage: 'ok',
} as const;

const NOTES = 'secret-ish detail only Explore reads\n'.repeat(20);
const SUMMARY = 'Explore summary: notes.md repeats one line 20 times.';
const exploreTask = `Read notes.md and summarise it. #tools ${JSON.stringify([
  { calls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
  { text: SUMMARY },
])}`;
const parentScript = JSON.stringify([
  { calls: [{ name: 'run_subagent', arguments: { agent: 'Explore', task: exploreTask } }] },
  { text: 'The parent is done.' },
]);

type Body = { model: string; messages: { role: string; content?: unknown; tool_calls?: unknown[] }[] };

export const journeys: Journey[] = [
  {
    name: 'subagents: the parent calls Explore on the utility model; its card shows progress and cost; the parent reads only the summary',
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.chatModel': 'gw-chat',
      'gatewayStudio.utilityModel': 'gw-latest',
    }),
    files: { 'notes.md': NOTES },
    async run({ wb, gw, shot }) {
      gw.setAccount({ displayType: 'USD', quotaPerUnit: 100_000, balance: 10_000_000, endpoints: ALL_ENDPOINTS_OK });
      await wb.setApiKey(gw.keys.valid);
      await wb.runCommand('Gateway Studio: Read Gateway Balance');
      const chat = await openChat(wb);
      const before = gw.requests().length;
      await sendMessage(chat, `find out what notes.md says #tools ${parentScript}`);
      // run_subagent asks first (a read-only tool, not yet trusted); then Explore's read_file asks
      // on the same card, named after the subagent. "Always allow" on each.
      const card = chat.locator('section.toolcard').first();
      const asking = chat.locator('section.toolcard.state-awaiting-approval');
      await asking.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await asking.innerText(), /run_subagent/);
      await asking.locator('button', { hasText: /^\s*Always allow\s*$/ }).click();
      await chat
        .locator('section.toolcard .tc-name', { hasText: 'Explore › read_file' })
        .waitFor({ timeout: UI_TIMEOUT });
      await shot('e2e-subagents-approval-on-card');
      await asking.locator('button', { hasText: /^\s*Always allow\s*$/ }).click();
      await chat.locator('.msg.assistant .md', { hasText: 'The parent is done.' }).waitFor({ timeout: UI_TIMEOUT });

      // The card: collapsed (the progress is in its Result), with the run, its model and its cost.
      const text = (await card.textContent()) ?? '';
      assert.match(text, /Explore \(gw-latest\) · done · 2 requests, 1 tool rounds · cost \$[\d.]+/, text);
      assert.equal(await card.locator('details.tc-result').getAttribute('open'), null, 'collapsed');
      await shot('e2e-subagents-card');

      const sent = gw
        .requests()
        .slice(before)
        .filter((r) => r.route === '/v1/chat/completions')
        .map((r) => r.body as Body);
      const explore = sent.filter((b) => b.model === 'gw-latest');
      assert.equal(explore.length, 2, 'Explore on the second model: its read, then its summary');
      assert.match(String(explore[0]?.messages[0]?.content), /You are Explore/);
      const parent = sent.filter((b) => b.model === 'gw-chat');
      const last = parent.at(-1)!;
      assert.equal(last.messages.find((m) => m.role === 'tool')?.content, SUMMARY, 'the summary is the tool result');
      assert.ok(
        !JSON.stringify(last).includes('secret-ish detail'),
        "Explore's transcript stays out of the parent's request",
      );
    },
  },
];
