// What the check-up (account/checkup, loaded on first use) borrows from the account feature: a
// profile's account, its unit, the advertised price of a model and its log. Types only from there.
import type { CheckupAccount, CheckupArgs } from '../checkup/vscode/checkupCommand';
import { formatQuota } from '../balance/core/money';
import { readSpendSettings } from './accounts';
import type { AccountFeature } from './feature';

export type { CheckupArgs };

export function checkupAccount(account: AccountFeature): CheckupAccount {
  return {
    async account(profileId, model) {
      const e = await account.accounts.forProfile(profileId);
      // The unit (and so the prices in it) is known after a first reading.
      if (e.state.snapshot().status === 'unknown') await e.state.refreshNow();
      const book = await account.accounts.prices(e, readSpendSettings());
      const price = book.lookup(model);
      const snap = e.state.snapshot();
      const unit = snap.unit;
      const balance = { status: snap.status, quota: snap.reading?.quota, unlimited: snap.reading?.unlimited };
      const f = account.ledger.failedCharges(e.gateway);
      const failedVideo = f.tasks ? { ...f, amount: formatQuota(f.quota, unit, { precise: true }) } : undefined;
      return {
        unit,
        balance,
        transport: e.transport,
        ...(price ? { price } : {}),
        ...(failedVideo ? { failedVideo } : {}),
      };
    },
  };
}
