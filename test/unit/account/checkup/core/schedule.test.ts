// The optional check-up schedule: what a user (or a damaged settings file) writes becomes entries
// or one clear line each; an entry is due after its days; an unattended run is bounded by the
// command's estimate, and refused without a price; a profile without balance is skipped.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balanceSkip, isDue, parseSchedule, scheduledBound } from '../../../../../src/account/checkup/core/schedule';

const DAY = 86_400_000;

void describe('check-up schedule', () => {
  void it('reads entries, with everyDays 7 by default; each bad entry gets its own line and the rest still run', () => {
    assert.deepEqual(parseSchedule(undefined), { entries: [], errors: [] });
    const r = parseSchedule([
      { profile: 'Relay', model: 'gpt-4o' },
      { profile: 'Relay', model: 'gpt-4o-mini', everyDays: 1 },
      { profile: '', model: 'x' },
      { profile: 'Relay', model: 'y', everyDays: 0.5 },
      'weekly',
    ]);
    assert.deepEqual(r.entries, [
      { profile: 'Relay', model: 'gpt-4o', everyDays: 7 },
      { profile: 'Relay', model: 'gpt-4o-mini', everyDays: 1 },
    ]);
    assert.deepEqual(r.errors, [
      'gatewayStudio.checkup.schedule entry 3: it needs a profile and a model.',
      'gatewayStudio.checkup.schedule entry 4: everyDays must be a whole number from 1 to 365.',
      'gatewayStudio.checkup.schedule entry 5: it needs a profile and a model.',
    ]);
    assert.match(parseSchedule({ profile: 'x' }).errors[0]!, /must be a list/);
    const many = parseSchedule(Array.from({ length: 25 }, (_, i) => ({ profile: 'p', model: `m${i}` })));
    assert.equal(many.entries.length, 20);
    assert.equal(many.errors.length, 5);
  });

  void it('is due when the history has no check-up of that profile and model within its days', () => {
    const e = { profile: 'relay-id', model: 'gpt-4o', everyDays: 7 };
    const now = 100 * DAY;
    assert.equal(isDue(e, 'Relay', [], now), true);
    assert.equal(isDue(e, 'Relay', [{ at: now - 3 * DAY, profile: 'Relay', model: 'gpt-4o' }], now), false);
    assert.equal(isDue(e, 'Relay', [{ at: now - 8 * DAY, profile: 'Relay', model: 'gpt-4o' }], now), true);
    // Another model or profile does not count; a check-up "from the future" (clock set back) does.
    assert.equal(isDue(e, 'Relay', [{ at: now - DAY, profile: 'Other', model: 'gpt-4o' }], now), true);
    assert.equal(isDue(e, 'Relay', [{ at: now - DAY, profile: 'Relay', model: 'gpt-4o-mini' }], now), true);
    assert.equal(isDue(e, 'Relay', [{ at: now + DAY, profile: 'Relay', model: 'gpt-4o' }], now), false);
  });

  void it('bounds an unattended run at the estimate plus 20%, and gives no bound without a price', () => {
    assert.equal(scheduledBound({ requests: 15, promptTokens: 1000, completionTokens: 100, quota: 1000 }), 1200);
    assert.equal(scheduledBound({ requests: 15, promptTokens: 1000, completionTokens: 100 }), undefined);
  });

  void it('skips a profile whose balance is used up or that reports none; runs otherwise', () => {
    assert.match(balanceSkip({ status: 'ok', quota: 0, unlimited: false })!, /used up/);
    assert.match(balanceSkip({ status: 'none' })!, /reports no balance/);
    assert.equal(balanceSkip({ status: 'ok', quota: 5, unlimited: false }), undefined);
    assert.equal(balanceSkip({ status: 'ok', unlimited: true }), undefined);
    assert.equal(balanceSkip({ status: 'unavailable' }), undefined);
  });
});
