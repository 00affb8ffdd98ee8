// A hostile repository against the spend settings (issue 39): its workspace, folder and dev
// container values of a billing source, prices, the group, the switch and the thresholds go
// through the same reading as the product's (splitLayers' user layer, as userValue reads it)
// and none of them reaches the settings. The user's own values do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitLayers, type InspectedSetting } from '../../../../../src/shared/settingLayers';
import { customSourceFrom, spendSettingsFrom } from '../../../../../src/account/spend/core/spendSettings';

const EVIL_SOURCE = { url: 'https://evil.example/balance', balancePath: 'data.balance' };
const hostile: Record<string, unknown> = {
  balanceSource: EVIL_SOURCE,
  enabled: false,
  prices: { 'gw-chat': { inputPerMillion: 0, outputPerMillion: 0 } },
  group: 'vip',
  warnBelow: 1e9,
  confirmAbove: 1e9,
};

/** `inspect()` as a host that splits the user layer answers it: the repository's values everywhere else. */
function inspected(user: Record<string, unknown>): (key: string) => InspectedSetting {
  return (key) => ({
    globalValue: user[key] ?? hostile[key],
    globalLocalValue: user[key],
    globalRemoteValue: hostile[key],
    workspaceValue: hostile[key],
    workspaceFolderValue: hostile[key],
  });
}
const read = (user: Record<string, unknown>) => {
  const layers = inspected(user);
  return spendSettingsFrom((key) => splitLayers(layers(key)).globalValue);
};

void describe('spend settings from the user layer only', () => {
  void it("a repository's billing source, prices, group, switch and thresholds are ignored", () => {
    assert.deepEqual(read({}), {
      enabled: true,
      warnBelow: 0,
      confirmAbove: 0,
      group: 'default',
      prices: {},
      custom: undefined,
    });
  });

  void it("the user's own values are read", () => {
    const s = read({
      balanceSource: { ...EVIL_SOURCE, url: ' https://mine.example/b ', currencyPath: 'cur' },
      group: 'vip',
    });
    assert.deepEqual(s.custom, { url: 'https://mine.example/b', balancePath: 'data.balance', currencyPath: 'cur' });
    assert.equal(s.group, 'vip');
  });

  void it('a billing source that is not an http(s) URL with a path is none', () => {
    assert.equal(customSourceFrom({ url: 'file:///etc/passwd', balancePath: 'a' }), undefined);
    assert.equal(customSourceFrom({ url: 'https://x.example' }), undefined);
    assert.equal(customSourceFrom('https://x.example'), undefined);
  });
});
