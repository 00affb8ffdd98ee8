// Caps that stop the loop (issue 39 item 4), as a user meets them: a cap of $0.10 per turn in the
// user's settings, a scripted tool loop of read_file calls, and the local gateway's own prices
// (gw-chat: model_ratio 1.5, completion_ratio 4; 100,000 quota units to the dollar, so $0.10 is
// 10,000 units and a step of a few thousand prompt tokens is a few cents). The loop pauses with a
// card before the step that would pass the cap; "Stop" ends the turn and nothing more is sent.
import * as assert from 'node:assert/strict';
import type { HostGateway } from '../host/gateway';
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

const READ = { calls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] };
/** More rounds than the cap allows (and than tools.maxRounds): only the cap can stop it mid-way. */
const LOOP = JSON.stringify(Array.from({ length: 8 }, () => READ));

const chatRequests = (gw: HostGateway) => gw.requests().filter((r) => r.route === '/v1/chat/completions').length;

export const journeys: Journey[] = [
  {
    name: 'caps: a cap of 0.10 pauses a scripted tool loop at the step that would pass it, and Stop sends nothing more',
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.chatModel': 'gw-chat',
      'gatewayStudio.spend.capPerTurn': 0.1,
    }),
    files: { 'notes.md': 'a line of notes to read\n'.repeat(30) },
    async run({ wb, gw, shot }) {
      gw.setAccount({ displayType: 'USD', quotaPerUnit: 100_000, balance: 10_000_000, endpoints: ALL_ENDPOINTS_OK });
      try {
        await wb.setApiKey(gw.keys.valid);
        await wb.runCommand('Gateway Studio: Read Gateway Balance');
        const chat = await openChat(wb);
        const before = chatRequests(gw);
        await sendMessage(chat, `read the notes again and again #tools ${LOOP}`);
        // A read-only tool asks until the user chooses "Always allow" (docs/USER-GUIDE.md, Tools): chosen on
        // the first call, so the loop goes on its own until the cap stops it.
        const asking = chat.locator('section.toolcard.state-awaiting-approval');
        await asking.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await asking.locator('button', { hasText: /^\s*Always allow\s*$/ }).click();
        const card = chat.locator('section.cap-card');
        await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        assert.equal(await card.getAttribute('data-kind'), 'turn');
        const text = await card.innerText();
        assert.match(text, /Paused at your spend cap for this turn/);
        assert.match(text, /Spent so far: \$[\d.]+ of \$0\.10\./, text);
        assert.match(text, /would cost at most \$[\d.]+/, text);
        // The step that would pass it: what the turn spent plus the next prompt is past the cap,
        // and every step before fitted (only the last one sent can have crossed it).
        const figure = async (a: string) => Number(await card.getAttribute(a));
        const [spent, cap, prompt] = [
          await figure('data-spent'),
          await figure('data-cap'),
          await figure('data-prompt'),
        ];
        assert.equal(cap, 10_000);
        assert.ok(spent + prompt > cap, `${spent} + ${prompt} > ${cap}: ${text}`);
        const sent = chatRequests(gw) - before;
        assert.ok(sent >= 1 && sent < 8, `${sent} requests before the pause: the loop paused mid-way`);
        assert.ok((await chat.locator('section.toolcard').count()) >= 1, 'a tool ran before the pause');
        await shot('caps-pause-card');
        await card.locator('button[data-action="stop"]').click();
        await chat.locator('.msg.assistant', { hasText: 'Stopped at your spend cap' }).last().waitFor({
          state: 'visible',
          timeout: UI_TIMEOUT,
        });
        await card.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
        // Stop sends nothing more: no request after the pause, even a while later.
        await wb.page.waitForTimeout(2000);
        assert.equal(chatRequests(gw) - before, sent, 'a request went out after Stop');
      } finally {
        gw.setAccount({ quotaPerUnit: 500_000, balance: 12_500_000, endpoints: ALL_ENDPOINTS_OK });
      }
    },
  },
];
