// The balance item in a real extension host: after an answer from the gateway (through the
// extension's own client: the language-model provider, so the answer reaches the account as the
// chat panel's do) its text is the local gateway's balance, formatted as the product formats it;
// a gateway without account endpoints shows no item and answers are unchanged.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { formatQuota, unitFromStatus } from '../../src/account/balance/core/money';
import type { AccountDebugState } from '../../src/account/vscode/register';
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
});
