// Failover (issue 39) as a user meets it, with two local gateway instances as two profiles and
// `gatewayStudio.failover` naming both for gw-chat: the first (Default) answers 429, then, on the
// client's retry, its new-api balance error; the chat's answer comes from the second (Relay) with
// the relay's own key and header, and says so under the answer; the usage view counts it on Relay;
// the balance item's tooltip shows Default's balance, Relay's, and that Default is skipped for now.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { HostGateway } from '../host/gateway';
import type { Gateway } from '../gateway/server';
import type { Journey } from './journey';
import { switchTo } from './profiles.e2e';
import { openChat, sendMessage, UI_TIMEOUT, type Workbench } from './workbench';

const chats = (g: Gateway) => g.requests().filter((r) => r.route === '/v1/chat/completions');

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = UI_TIMEOUT): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The balance item's tooltip text once it says everything `want` asks (hovered until then). */
async function tooltip(wb: Workbench, want: RegExp[]): Promise<string> {
  let last = '';
  try {
    return await until(`the balance tooltip to show ${want.join(', ')}`, async () => {
      await wb.page.mouse.move(5, 5);
      await wb.statusItem('gatewayStudio.balance').hover();
      const hover = wb.page.locator('.monaco-hover', { hasText: 'Source' }).first();
      await hover.waitFor({ state: 'visible', timeout: 5000 });
      last = (await hover.innerText()).replace(/\u00a0/g, ' ');
      return want.every((w) => w.test(last)) ? last : undefined;
    });
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; the tooltip said:\n${last}`, { cause: e });
  }
}

/** The usage view's webview frame (Markdown preview), found by its heading. */
async function usageFrame(wb: Workbench): Promise<Frame> {
  return until('the usage view', async () => {
    for (const f of wb.page.frames()) {
      if (
        (await f
          .locator('h1', { hasText: 'Gateway Studio usage' })
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    return undefined;
  });
}

const settings = (gw: HostGateway): Record<string, unknown> => ({
  'gatewayStudio.baseUrl': gw.url,
  'gatewayStudio.chatModel': 'gw-chat',
  'gatewayStudio.profiles': [
    {
      id: 'relay',
      name: 'Relay',
      baseUrl: gw.second.url,
      headers: { [gw.second.requiredHeader!.name]: gw.second.requiredHeader!.value },
    },
  ],
  'gatewayStudio.failover': { 'gw-chat': ['default', 'relay'] },
});

export const journeys: Journey[] = [
  {
    name: 'failover: Default answers 429 then its balance error, Relay answers and the answer says so, the usage counts it on Relay, the tooltip shows both balances',
    settings,
    async run({ wb, gw, shot }) {
      const relay = gw.second;
      const header = relay.requiredHeader!.name;
      await wb.setApiKey(gw.keys.valid);
      await switchTo(wb, 'Relay');
      await wb.setApiKey(relay.keys.valid);
      await switchTo(wb, 'Default');
      await wb.runCommand('Gateway Studio: Read Gateway Balance');

      // A 429 (retried by the client after 10 ms), then new-api's balance refusal (not retried).
      const chat = { match: { path: '/v1/chat/completions' } };
      gw.fault({ ...chat, status: 429, retryAfterMs: 10 });
      gw.fault({ ...chat, relayError: 'new-api-user-quota' });
      const relayBefore = relay.account().remaining;

      const page = await openChat(wb);
      await sendMessage(page, 'who answers this');
      const answer = page.locator('.msg.assistant').last();
      await answer
        .locator('.md', { hasText: 'Echo: who answers this' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const notice = answer.locator('.notice', { hasText: 'Answered by Relay' });
      await notice.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await notice.innerText(), /Answered by Relay: Default said: HTTP 403 .*insufficient balance/);

      assert.deepEqual(
        chats(gw).map((r) => r.auth),
        ['valid', 'valid'],
        'Default was asked twice by its own retry (429, then the balance error), never again',
      );
      const sent = chats(relay);
      assert.equal(sent.length, 1, 'Relay answered once');
      assert.equal(sent[0]!.auth, 'valid', "Relay got its own key, not Default's");
      assert.equal(sent[0]!.headers[header], relay.requiredHeader!.value, "Relay's header went with it");
      await until('the relay to bill the answer', async () =>
        relay.account().remaining < relayBefore ? true : undefined,
      );
      await shot('e2e-failover-answer');

      // The ledger counts the answer on Relay (the usage view's Profile column), none on Default.
      await wb.runCommand('Gateway Studio: Show Usage by Day and Model');
      const usage = await usageFrame(wb);
      // Today's table comes first; the prices-across-profiles table below it lists Default too.
      const ledger = usage.locator('table').first();
      const row = ledger.locator('tr', { hasText: 'Relay' }).filter({ hasText: 'gw-chat' });
      await row.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const cells = (await row.first().locator('td').allInnerTexts()).map((t) => t.trim());
      assert.deepEqual(cells.slice(0, 3), ['gw-chat', 'Relay', '1'], cells.join(' | '));
      assert.equal(await ledger.locator('tr', { hasText: 'Default' }).count(), 0, 'nothing counted on Default');

      // The tooltip: Default's balance (the active profile), Relay's, and Default's cool-down.
      const text = await tooltip(wb, [
        /Balance: \$\d/,
        /Relay: \$\d+\.\d{2}/,
        /Failover skips:/,
        /Default until .*insufficient balance/,
      ]);
      assert.ok(!text.includes(relay.keys.valid) && !text.includes(gw.keys.valid), 'no key in the tooltip');
      await shot('e2e-failover-tooltip');
    },
  },
];
