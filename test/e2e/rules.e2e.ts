// The rules chips in the real chat panel: a workspace with an AGENTS.md shows it as a chip above
// the composer, its text reaches the gateway in the system message, and unchecking the chip
// leaves it out of the next request (checked in the gateway's recorded requests).
import * as assert from 'node:assert/strict';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

/** The system message of each chat request the gateway received since the last reset. */
function systemMessages(gw: HostGateway): string[] {
  return gw
    .requests()
    .filter((r) => r.method === 'POST' && r.route === '/v1/chat/completions')
    .map((r) => {
      const first = (r.body as { messages: { role: string; content: unknown }[] }).messages[0];
      return first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
    });
}

async function requestCount(gw: HostGateway, n: number): Promise<string[]> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const s = systemMessages(gw);
    if (s.length >= n) return s;
    if (Date.now() > deadline) throw new Error(`the gateway received ${s.length} chat request(s), expected ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const journeys: Journey[] = [
  {
    name: 'rules: AGENTS.md shows as a chip, reaches the gateway, and unchecking the chip leaves it out',
    share: 'tools',
    settings: chatSettings,
    files: { 'AGENTS.md': 'House rule: answer with British spelling.\n' },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      gw.resetCounts();
      const chat = await openChat(wb);
      const chip = chat.locator('.rule-chip', { hasText: 'AGENTS.md' });
      await chip.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await chip.locator('input[type="checkbox"]').isChecked(), true);
      await shot('e2e-rules-chip');

      await sendMessage(chat, 'first question');
      await chat.locator('.msg.assistant .md', { hasText: 'Echo: first question' }).waitFor({ timeout: UI_TIMEOUT });
      const [first] = await requestCount(gw, 1);
      assert.ok(first?.includes('House rule: answer with British spelling.'), first);

      await chip.locator('input[type="checkbox"]').uncheck();
      await chat.locator('.rule-chip.off', { hasText: 'AGENTS.md' }).waitFor({ timeout: UI_TIMEOUT });
      await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await sendMessage(chat, 'second question');
      await chat.locator('.msg.assistant .md', { hasText: 'Echo: second question' }).waitFor({ timeout: UI_TIMEOUT });
      const [, second] = await requestCount(gw, 2);
      assert.ok(second?.startsWith('You are Gateway Studio'), 'the product part is still sent');
      assert.ok(!second?.includes('British spelling'), second);
    },
  },
];
