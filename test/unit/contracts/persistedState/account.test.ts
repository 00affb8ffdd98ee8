// The account feature's persisted keys (src/contracts/persistedState/account.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  balanceSourcesKey,
  dailyLimitWarnedKey,
  usageLedgerKey,
} from '../../../../src/contracts/persistedState/account';
import { decodeState, loadState } from '../../../../src/contracts/persistedState/state';

const stored = (key: string, value: unknown) => ({
  get: (k: string) => (k === key ? value : undefined),
  update: () => Promise.resolve(),
});

void describe('account keys', () => {
  void it('keep the names (with their version suffix) and store earlier versions wrote', () => {
    assert.deepEqual(
      [dailyLimitWarnedKey, usageLedgerKey, balanceSourcesKey].map((k) => [k.key, k.store, k.version]),
      [
        ['gatewayStudio.spend.dailyLimitWarned.v1', 'global', 1],
        ['gatewayStudio.spend.ledger.v1', 'global', 1],
        ['gatewayStudio.spend.sources.v1', 'global', 1],
      ],
    );
  });

  void it('the daily-limit days keep string days only', () => {
    assert.deepEqual(decodeState(dailyLimitWarnedKey, { a: '2026-11-28', b: 3 }), { a: '2026-11-28' });
    assert.deepEqual(loadState(stored(dailyLimitWarnedKey.key, ['x']), dailyLimitWarnedKey), {});
  });

  void it('the ledger is a list as stored (its rows are checked by the ledger), empty when not a list', () => {
    const rows = [{ day: '2026-11-28' }, 5];
    assert.deepEqual(loadState(stored(usageLedgerKey.key, rows), usageLedgerKey), rows);
    assert.deepEqual(loadState(stored(usageLedgerKey.key, { day: 'x' }), usageLedgerKey), []);
  });

  void it('balance sources keep the known kinds only', () => {
    assert.deepEqual(
      decodeState(balanceSourcesKey, { 'https://a': 'new-api', 'https://b': 'oracle', 'https://c': 'custom' }),
      {
        'https://a': 'new-api',
        'https://c': 'custom',
      },
    );
    assert.deepEqual(loadState(stored(balanceSourcesKey.key, 'new-api'), balanceSourcesKey), {});
  });
});
