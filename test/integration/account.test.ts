// The balance item in a real extension host: after an answer from the gateway (through the
// extension's own client: the language-model provider, so the answer reaches the account as the
// chat panel's do) its text is the local gateway's balance, formatted as the product formats it;
// a gateway without account endpoints shows no item and answers are unchanged.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { formatQuota, unitFromStatus } from '../../src/account/balance/core/money';
import type { AccountDebugState } from '../../src/account/vscode/debugState';
import { WARNED_KEY } from '../../src/account/spend/core/dailyLimit';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';

const debugState = () => vscode.commands.executeCommand<AccountDebugState>('gatewayStudio.spend.debugState');
const gatewayRemaining = async (): Promise<number> =>
  ((await (await fetch(`${gateway.url}/__control/account`)).json()) as { remaining: number }).remaining;

async function answer(text: string): Promise<string> {
  const [m] = await waitFor('the gw-chat language model', async () => {
    const found = await vscode.lm.selectChatModels({ vendor: 'gateway-studio', id: 'gw-chat' });
    return found.length > 0 ? found : undefined;
  });
  const r = await m!.sendRequest(
    [vscode.LanguageModelChatMessage.User(text)],
    {},
    new vscode.CancellationTokenSource().token,
  );
  let out = '';
  for await (const part of r.stream) if (part instanceof vscode.LanguageModelTextPart) out += part.value;
  return out;
}

describe('account balance', () => {
  before(async () => {
    await extension();
    await setSetting('baseUrl', gateway.url);
    await waitFor('the command of the account feature', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.spend.debugState'),
    );
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
  });
  afterEach(async () => {
    await control('reset');
    await (await keyStore()).clear();
  });

  it("after an answer the status-bar text equals the gateway's balance", async () => {
    // 1000 quota units per dollar: one short answer moves the figure by whole cents.
    await control('account', { quotaPerUnit: 1000, balance: 100_000 });
    const unit = unitFromStatus({ displayType: 'USD', quotaPerUnit: 1000 });
    // Earlier suites' answers went to the same gateway today: this answer's share is the increase.
    const before = await debugState();
    assert.equal(await answer('what does this cost'), 'Echo: what does this cost');
    const remaining = await gatewayRemaining();
    assert.ok(remaining < 100_000, 'the gateway charged the answer');
    const expected = formatQuota(remaining, unit);
    let last: AccountDebugState | undefined;
    const shown = await waitFor(
      `the balance item to show ${expected}`,
      async () => {
        last = await debugState();
        // The figure may be right before the answer is counted (the first read of a new account).
        return last.visible && last.figure === expected && last.events > before.events ? last : undefined;
      },
      15_000,
    ).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}; it shows ${JSON.stringify(last)}`);
    });
    assert.equal(shown.quota, remaining);
    assert.equal(
      (shown.todayQuota ?? 0) - (before.todayQuota ?? 0),
      100_000 - remaining,
      `today's total is the answer's cost, to the quota unit: ${JSON.stringify(shown)}`,
    );
    assert.ok(
      shown.tooltip.some((l) => l.includes('/api/usage/token')),
      shown.tooltip.join(' | '),
    );
  });

  it('a gateway without account endpoints: no item, and answers work unchanged', async () => {
    await control('account', {
      endpoints: { status: 'missing', 'usage-token': 'missing', subscription: 'missing', usage: 'missing' },
    });
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    const s = await waitFor('the account to settle as none', async () => {
      const d = await debugState();
      return d.status === 'none' ? d : undefined;
    });
    assert.equal(s.visible, false);
    assert.equal(await answer('still here'), 'Echo: still here');
  });

  it('spend.dailyLimit: crossing it warns once that day, naming the figures; later answers say nothing more', async function () {
    this.timeout(60_000);
    const services = (await extension()).exports as Services;
    // What an earlier run of the suite said today is forgotten: the guard remembers per day.
    await services.context.globalState.update(WARNED_KEY, undefined);
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    const before = await debugState();
    const today = before.todayQuota ?? 0;
    // A limit one quota unit above what was spent today ($ at 500000 quota units): the next
    // answer passes it.
    await setSetting('spend.dailyLimit', (today + 1) / 500_000);
    try {
      assert.equal(await answer('first after the limit'), 'Echo: first after the limit');
      let last: AccountDebugState | undefined;
      const warned = await waitFor('the daily-limit warning', async () => {
        last = await debugState();
        return last.dailyWarnings.length > before.dailyWarnings.length ? last : undefined;
      }).catch((e: unknown) => {
        const limit = vscode.workspace.getConfiguration('gatewayStudio').inspect('spend.dailyLimit');
        throw new Error(
          `${e instanceof Error ? e.message : String(e)}; before ${JSON.stringify(before)}, now ${JSON.stringify(last)}, setting ${JSON.stringify(limit)}`,
        );
      });
      const said = warned.dailyWarnings.slice(before.dailyWarnings.length);
      assert.equal(said.length, 1, JSON.stringify(said));
      const host = new URL(gateway.url).host;
      assert.match(
        said[0]!,
        new RegExp(
          `^Today's spend on ${host.replace(/\./g, '\\.')} is \\$[\\d.]+, past your daily limit of \\$[\\d.]+`,
        ),
      );
      assert.equal(await answer('second after the limit'), 'Echo: second after the limit');
      await waitFor('the second answer counted', async () =>
        (await debugState()).events >= warned.events + 1 ? true : undefined,
      );
      assert.equal((await debugState()).dailyWarnings.length, warned.dailyWarnings.length, 'warned once');
    } finally {
      await setSetting('spend.dailyLimit', undefined);
    }
  });

  it('no daily limit set: passing any figure says nothing', async () => {
    const services = (await extension()).exports as Services;
    await services.context.globalState.update(WARNED_KEY, undefined);
    const before = await debugState();
    assert.equal(await answer('no limit here'), 'Echo: no limit here');
    await waitFor('the answer counted', async () => ((await debugState()).events > before.events ? true : undefined));
    assert.equal((await debugState()).dailyWarnings.length, before.dailyWarnings.length);
  });

  it('a videoBaseUrl with an account of its own: clips are counted there and the tooltip says so', async function () {
    this.timeout(90_000);
    await control('account', { onVideoHost: true });
    // The host stage's user settings may set these already: they are put back as they were.
    const cfg = vscode.workspace.getConfiguration('gatewayStudio');
    const before = {
      video: cfg.inspect('videoBaseUrl')?.globalValue,
      poll: cfg.inspect('video.pollIntervalSeconds')?.globalValue,
    };
    await setSetting('videoBaseUrl', gateway.videoUrl);
    await setSetting('video.pollIntervalSeconds', 0.2);
    try {
      await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
      const video = `${gateway.videoUrl}/v1`;
      let seen: AccountDebugState | undefined;
      const shown = await waitFor('the video account named in the tooltip', async () => {
        const d = (seen = await debugState());
        return d.videoAccount === video && d.tooltip.some((l) => l.includes(new URL(gateway.videoUrl).host))
          ? d
          : undefined;
      }).catch((e: unknown) => {
        throw new Error(
          `${e instanceof Error ? e.message : String(e)}; expected ${video}, state ${JSON.stringify(seen)}`,
        );
      });
      assert.ok(
        shown.tooltip.some((l) =>
          /^Video clips are billed by 127\.0\.0\.1:\d+ \(gatewayStudio\.videoBaseUrl\)/.test(l),
        ),
        shown.tooltip.join(' | '),
      );
      const chatToday = shown.todayQuota ?? 0;
      const key = await vscode.commands.executeCommand<string | undefined>('gatewayStudio.video.generate', {
        prompt: 'a clip billed by the video host',
        model: 'vendor-image-video',
        seconds: 4,
        resolution: '720p',
      });
      assert.ok(key, 'no task was started');
      const after = await waitFor(
        'the clip counted against the video account',
        async () => {
          const d = await debugState();
          return d.events > shown.events ? d : undefined;
        },
        60_000,
      );
      assert.equal(after.todayQuota, chatToday, "the chat gateway's today is not the clip's");
      const videoLine = (d: AccountDebugState) => d.tooltip.find((l) => l.startsWith('Video clips are billed by'));
      assert.notEqual(videoLine(after), videoLine(shown), `the video line counts the clip: ${videoLine(after)}`);
    } finally {
      await setSetting('videoBaseUrl', before.video);
      await setSetting('video.pollIntervalSeconds', before.poll);
    }
  });
});
