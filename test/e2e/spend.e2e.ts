// What an answer and a clip cost, as a user sees it (issue 21): the balance item moves by exactly
// the cost under the answer, the clip's price is shown before the submit, the item turns to the
// warning colour once the balance crosses the user's threshold, and a gateway that reports no
// balance says so once and otherwise changes nothing. The local gateway deducts by its own prices
// (test/gateway/account.ts); the journeys set its account and put it back after.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { generateWithWizard } from './video.e2e';
import { openChat, sendMessage, UI_TIMEOUT, type Workbench } from './workbench';

/** 100 quota units per dollar: every charge is whole cents, so the two-decimal item is exact. */
const QUOTA_PER_UNIT = 100;
const BALANCE = 100_000; // $1000.00

const ALL_ENDPOINTS_OK = {
  status: 'ok',
  'usage-token': 'ok',
  pricing: 'ok',
  'log-token': 'ok',
  subscription: 'ok',
  usage: 'ok',
} as const;

function putBack(gw: HostGateway): void {
  gw.setAccount({ quotaPerUnit: 500_000, balance: 12_500_000, endpoints: ALL_ENDPOINTS_OK });
}

/** `$999.25` -> 99925 (cents); throws on anything else, so a wrong unit or text fails loudly. */
function cents(text: string): number {
  const m = /\$(\d[\d,]*)\.(\d{2})(?!\d)/.exec(text);
  if (!m) throw new Error(`no dollar figure with two decimals in "${text}"`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
}

/** The balance item's text once it matches `want` (the item is read after answers, debounced). */
async function balanceText(wb: Workbench, want: (t: string) => boolean, what: string): Promise<string> {
  const item = wb.statusItem('gatewayStudio.balance');
  const deadline = Date.now() + UI_TIMEOUT;
  let last = '';
  for (;;) {
    last = (await item.innerText({ timeout: 1000 }).catch(() => '')).trim();
    if (last && want(last)) return last;
    if (Date.now() > deadline) throw new Error(`the balance item never showed ${what}; it shows "${last}"`);
    await wb.page.waitForTimeout(200);
  }
}

/**
 * Whether the balance item wears a background colour: the only one it is ever given is the
 * theme's `statusBarItem.warningBackground` (VS Code marks the item `has-background-color`, or
 * `warning-kind` in versions that map that colour to a kind).
 */
async function warns(wb: Workbench): Promise<boolean> {
  const cls = (await wb.statusItem('gatewayStudio.balance').getAttribute('class')) ?? '';
  return /\b(has-background-color|warning-kind)\b/.test(cls);
}

/** The extension's log lines about spend and video, for a failure's message (the run's folder goes at cleanup). */
function extensionLog(userDataDir: string): string {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/Gateway Studio/.test(f)) found.push(p);
    }
  };
  try {
    walk(join(userDataDir, 'logs'));
  } catch {
    return '(no log)';
  }
  return found
    .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
    .filter((l) => /Account|video|price/i.test(l))
    .slice(-30)
    .join('\n');
}

const settings = (gw: HostGateway): Record<string, unknown> => ({
  'gatewayStudio.baseUrl': gw.url,
  'gatewayStudio.videoBaseUrl': gw.videoUrl,
  'gatewayStudio.chatModel': 'gw-chat',
  'gatewayStudio.video.pollIntervalSeconds': 0.3,
});

export const journeys: Journey[] = [
  {
    name: 'spend: the balance drops by the cost under the answer, crossing warnBelow turns it to the warning colour, the clip shows its price before the submit',
    settings: (gw) => ({
      ...settings(gw),
      // $999.99: the first answer takes the balance below it.
      'gatewayStudio.spend.warnBelow': 999.99,
      // A clip of vendor-image-video is a few cents: above this the submit asks, naming the figure.
      'gatewayStudio.spend.confirmAbove': 0.01,
    }),
    async run({ wb, gw, page, shot, cs }) {
      gw.setAccount({
        displayType: 'USD',
        quotaPerUnit: QUOTA_PER_UNIT,
        balance: BALANCE,
        endpoints: ALL_ENDPOINTS_OK,
      });
      try {
        await wb.setApiKey(gw.keys.valid);
        await wb.runCommand('Gateway Studio: Read Gateway Balance');
        const first = await balanceText(wb, (t) => /\$1,?000\.00/.test(t), '$1000.00');
        assert.equal(cents(first), BALANCE);
        assert.equal(await warns(wb), false, 'above the threshold the item is not in the warning colour');

        const chat = await openChat(wb);
        await sendMessage(chat, 'what does this answer cost');
        const answer = chat.locator('.msg.assistant').last();
        await answer
          .locator('.md', { hasText: 'Echo: what does this answer cost' })
          .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const costNote = answer.locator('.cost');
        await costNote.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        const costText = (await costNote.innerText()).trim();
        assert.doesNotMatch(costText, /≈|unknown/, `the cost is the gateway's price, not an estimate: ${costText}`);
        const cost = cents(costText);
        assert.ok(cost > 0, costText);
        const after = await balanceText(wb, (t) => cents(t) < BALANCE, 'a lower balance');
        assert.equal(
          BALANCE - cents(after),
          cost,
          `the balance went from $1000.00 to ${after}; the answer said ${costText}`,
        );
        assert.equal(cents(after), gw.account().remaining, "the item is the gateway's balance");
        // The item is redrawn with its colour in the same render as its text.
        assert.ok(await warns(wb), 'below warnBelow the item wears the warning colour');
        const label = await wb
          .statusItem('gatewayStudio.balance')
          .evaluate((el) =>
            [el, ...el.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label') ?? '').join(' '),
          );
        assert.match(label ?? '', /below your warning threshold/, 'a screen reader hears the warning too');
        await shot('e2e-spend-answer-cost');
        if (process.env.GWS_UPDATE_SCREENSHOT) {
          // The answer with its cost, the conversation's total, and the balance item's tooltip.
          await wb.runCommand('View: Close Primary Side Bar');
          await wb.statusItem('gatewayStudio.balance').hover();
          await page
            .locator('.monaco-hover', { hasText: 'Source' })
            .first()
            .waitFor({ state: 'visible', timeout: 10_000 })
            .catch(() => undefined);
          await page.waitForTimeout(500);
          await page.screenshot({ path: 'media/screenshot-spend.png' });
          await page.mouse.move(600, 300);
        }

        // The clip: the wizard's duration step shows the price of each choice.
        await wb.runCommand('Gateway Studio: Generate Video');
        const title = (n: number, timeout = UI_TIMEOUT) =>
          wb.quickInput.locator('.quick-input-title', { hasText: `${n}/6` }).waitFor({ state: 'visible', timeout });
        await title(1);
        await wb.quickInput.locator('.monaco-list-row', { hasText: 'vendor-image-video' }).first().click();
        await title(2);
        await wb.quickInputBox.fill('a lighthouse at dusk');
        await wb.quickInputBox.press('Enter');
        await title(3);
        await wb.quickInput.locator('.monaco-list-row', { hasText: 'None (text to video)' }).first().click();
        await title(4);
        const priced = wb.quickInput.locator('.monaco-list-row', { hasText: /Price: about \$\d/ }).first();
        await priced.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        // The default duration, aspect ratio and resolution; Enter again until the step moves (the
        // wizard may lag a keypress), but once at the last step Enter is pressed once: a second
        // one would land on the price question and accept it.
        const beforeClip = gw.account().remaining;
        for (const step of [4, 5]) {
          for (let i = 0; ; i++) {
            await wb.quickInputBox.press('Enter');
            const moved = await title(step + 1, 3000).then(
              () => true,
              () => false,
            );
            if (moved) break;
            if (i > 10) throw new Error(`the wizard stayed at step ${step}`);
          }
        }
        await wb.quickInputBox.press('Enter');
        // Submitted: above confirmAbove the modal names the figure before anything is sent.
        const dialog = page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
        await wb.quickInput.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
        const asked = await dialog.innerText();
        assert.match(asked, /estimated at \$\d+\.\d+, above your limit of \$0\.01/, asked);
        assert.equal(gw.account().remaining, beforeClip, 'nothing is billed while the question is open');
        await shot('e2e-spend-video-price');
        await dialog.locator('.monaco-button', { hasText: 'Generate (billed)' }).click();
        await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
        await wb.notification('Video saved', 120_000);
        const charged = beforeClip - gw.account().remaining;
        assert.ok(charged > 0, 'the gateway charged the clip');
        const afterClip = await balanceText(
          wb,
          (t) => cents(t) === gw.account().remaining,
          'the balance after the clip',
        );
        assert.equal(cents(after) - cents(afterClip), charged, 'the item moved by the clip’s charge');
      } catch (e) {
        throw new Error(
          `${e instanceof Error ? e.message : String(e)}\nthe extension's log:\n${extensionLog(cs.userDataDir)}`,
          {
            cause: e,
          },
        );
      } finally {
        putBack(gw);
      }
    },
  },
  {
    name: 'spend: a gateway with no balance endpoints says so once, shows no item, and chat and video work unchanged',
    settings,
    async run({ wb, gw, page, shot }) {
      gw.setAccount({
        endpoints: { status: 'missing', 'usage-token': 'missing', subscription: 'missing', usage: 'missing' },
      });
      try {
        // Watched from before the key is set: the first reading after it may say so already, and
        // the line passes after 8 s (a loaded machine can take longer than that to run the command).
        const quiet = page.locator('.statusbar', { hasText: 'This gateway does not report a balance.' });
        const said = quiet.waitFor({ state: 'visible', timeout: 2 * UI_TIMEOUT });
        await wb.setApiKey(gw.keys.valid);
        await wb.runCommand('Gateway Studio: Read Gateway Balance');
        await said;
        await shot('e2e-spend-no-balance');
        assert.equal(await wb.statusItem('gatewayStudio.balance').isVisible(), false, 'no balance item');
        // The line is a passing one (a few seconds), then the gateway is never said again.
        await quiet.waitFor({ state: 'hidden', timeout: 30_000 });
        let seenAgain = false;
        const watch = setInterval(() => {
          void quiet
            .isVisible()
            .then((v) => (seenAgain ||= v))
            .catch(() => undefined);
        }, 250);
        try {
          const chat = await openChat(wb);
          await sendMessage(chat, 'still answering');
          await chat
            .locator('.msg.assistant .md', { hasText: 'Echo: still answering' })
            .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
          await generateWithWizard(wb, 'a quiet harbour');
          await wb.notification('Video saved', 120_000);
          await wb.runCommand('Gateway Studio: Read Gateway Balance');
          await page.waitForTimeout(2000);
        } finally {
          clearInterval(watch);
        }
        assert.equal(seenAgain, false, 'the quiet line was said a second time');
        assert.equal(await wb.statusItem('gatewayStudio.balance').isVisible(), false, 'still no balance item');
      } finally {
        putBack(gw);
      }
    },
  },
];
