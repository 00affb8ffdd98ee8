// Every balance (issue 39) in the real host, with two local-gateway instances as two profiles:
// the first bills as new-api, the second as OpenRouter. "Show Balances" reads each with its own
// base URL and key (the second instance records the key it was sent), the tooltip then lists the
// other profile's figure with its unit, and a repository's workspace billing source is never
// asked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BalanceLine } from '../../src/account/balance/core/balanceList';
import type { AccountDebugState } from '../../src/account/vscode/debugState';
import type { Services } from '../../src/platform/services';
import {
  control,
  control2,
  extension,
  gateway,
  gateway2,
  keyStore,
  setSetting,
  waitFor,
  writeWorkspaceSettings,
} from './env';

interface Recorded {
  path: string;
  auth: string;
}

const RELAY = {
  id: 'relay',
  name: 'Relay',
  baseUrl: '',
  headers: { [gateway2.header.name]: gateway2.header.value },
};

describe('every balance', () => {
  let s: Services;
  before(async () => {
    s = (await extension()).exports as Services;
    RELAY.baseUrl = gateway2.url;
    await setSetting('baseUrl', gateway.url);
    await waitFor('the account feature', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.spend.showBalances'),
    );
  });
  beforeEach(async () => {
    await control('reset');
    await control2('reset');
    await control2('account', { billing: 'openrouter', quotaPerUnit: 1000, balance: 12_340 });
    await (await keyStore()).set(gateway.validKey);
    await setSetting('profiles', [RELAY]);
    await s.profiles.setKey('relay', gateway2.validKey);
  });
  afterEach(async () => {
    await control2('account', { billing: 'new-api' });
    await writeWorkspaceSettings(undefined);
    await s.profiles.setActive('default');
    await s.profiles.clearKey('relay');
    await setSetting('profiles', undefined);
    await (await keyStore()).clear();
  });

  it("Show Balances lists both profiles' figures, each read with its own key; the tooltip names the other", async () => {
    const lines = (await vscode.commands.executeCommand<BalanceLine[]>('gatewayStudio.spend.showBalances'))!;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const relay = lines.find((l) => l.profileId === 'relay');
    assert.equal(relay?.figure, '$12.34', JSON.stringify(lines));
    assert.match(relay!.detail, /OpenRouter/);
    const def = lines.find((l) => l.profileId === 'default');
    assert.equal(def?.figure, '$25.00', JSON.stringify(lines));
    // The second instance saw its own key on /v1/key, and the first never saw a request for it.
    const second = (await control2('requests')) as Recorded[];
    assert.ok(second.some((r) => r.path === '/v1/key' && r.auth === 'valid'));
    const first = (await control('requests')) as Recorded[];
    // Detection may probe the first gateway's own /v1/key too, with its own key: never the relay's.
    assert.ok(!first.some((r) => r.auth === 'wrong'), "the relay's key reached the first gateway");
    const state = await waitFor('the tooltip to list the other profile', async () => {
      const d = await vscode.commands.executeCommand<AccountDebugState>('gatewayStudio.spend.debugState');
      return d?.tooltip.some((l) => l.startsWith('Relay: $12.34')) ? d : undefined;
    });
    assert.ok(state.tooltip.includes('Other profiles:'));
  });

  it("a repository's billing source is not read", async () => {
    const evil = `${gateway.url}/evil-balance`;
    await writeWorkspaceSettings({ 'gatewayStudio.spend.balanceSource': { url: evil, balancePath: 'data.balance' } });
    // VS Code drops an application setting from workspace files; the file itself was read (its
    // window-scoped marker is there), so a reader of the raw layers would have seen the URL.
    assert.ok(
      vscode.workspace.getConfiguration('gatewayStudio').inspect<Record<string, unknown>>('models.overrides')
        ?.workspaceValue?.['gw-marker'],
      'VS Code read the repository’s settings file',
    );
    await control('account', { endpoints: { status: 'missing', 'usage-token': 'missing', subscription: 'missing' } });
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    const first = (await control('requests')) as Recorded[];
    assert.ok(!first.some((r) => r.path === '/evil-balance'), 'the workspace URL was never asked');
  });
});
