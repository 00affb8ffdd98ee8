// Inline completion's persisted key (src/contracts/persistedState/completion.ts).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { completionsSnoozedUntilKey } from '../../../../src/contracts/persistedState/completion';
import { loadState } from '../../../../src/contracts/persistedState/state';

const stored = (value: unknown) => ({ get: () => value, update: () => Promise.resolve() });

void it('the snooze is a finite time, 0 (not snoozed) when absent or anything else', () => {
  assert.deepEqual(
    [completionsSnoozedUntilKey.key, completionsSnoozedUntilKey.store],
    ['gatewayStudio.completions.snoozedUntil', 'global'],
  );
  assert.equal(loadState(stored(1_764_300_000_000), completionsSnoozedUntilKey), 1_764_300_000_000);
  assert.equal(loadState(stored(undefined), completionsSnoozedUntilKey), 0);
  assert.equal(loadState(stored('soon'), completionsSnoozedUntilKey), 0);
  assert.equal(loadState(stored(Number.POSITIVE_INFINITY), completionsSnoozedUntilKey), 0);
});
