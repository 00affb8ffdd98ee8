// Failover's persisted key (src/contracts/persistedState/failover.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failoverCoolDownsKey } from '../../../../src/contracts/persistedState/failover';
import { decodeState, loadState } from '../../../../src/contracts/persistedState/state';

void describe('failover keys', () => {
  void it('keeps its name, store and version', () => {
    assert.deepEqual(
      [failoverCoolDownsKey.key, failoverCoolDownsKey.store, failoverCoolDownsKey.version],
      ['gatewayStudio.failover.coolDowns.v1', 'global', 1],
    );
  });

  void it('keeps well-formed cool-downs and drops the others, one by one', () => {
    const ok = { until: 1_000, cause: 'rate_limit', said: 'HTTP 429' };
    assert.deepEqual(decodeState(failoverCoolDownsKey, { a: ok, b: { until: 'soon', cause: 'x', said: '' }, c: 3 }), {
      a: ok,
    });
    const nothing = { get: () => ['not', 'a', 'map'], update: () => Promise.resolve() };
    assert.deepEqual(loadState(nothing, failoverCoolDownsKey), {});
  });
});
