// The relay check-up's persisted key (src/contracts/persistedState/checkup.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkupHistoryKey } from '../../../../src/contracts/persistedState/checkup';
import { loadState } from '../../../../src/contracts/persistedState/state';

const stored = (value: unknown) => ({
  get: (k: string) => (k === checkupHistoryKey.key ? value : undefined),
  update: () => Promise.resolve(),
});

void describe('check-up key', () => {
  void it('keeps its name, store and version', () => {
    assert.deepEqual(
      [checkupHistoryKey.key, checkupHistoryKey.store, checkupHistoryKey.version],
      ['gatewayStudio.checkup.history.v1', 'global', 1],
    );
  });

  void it('keeps the entries of the stored shape only, and a list always', () => {
    const good = { at: 1, profile: 'p', model: 'm', verdicts: { bill: 'ok' }, figures: { bill: { multiplier: 1 } } };
    assert.deepEqual(loadState(stored([good, { at: 'x' }, null, 3]), checkupHistoryKey), [good]);
    assert.deepEqual(loadState(stored({ at: 1 }), checkupHistoryKey), []);
  });
});
