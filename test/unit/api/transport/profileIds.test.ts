import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PROFILE_ID, LEGACY_KEY_SLOT, keySlot } from '../../../../src/api/transport/profileIds';

void describe('profile key slots', () => {
  void it("Default's key is the slot earlier versions wrote; every other profile has its own", () => {
    assert.equal(keySlot(DEFAULT_PROFILE_ID), 'gatewayStudio.apiKey');
    assert.equal(LEGACY_KEY_SLOT, 'gatewayStudio.apiKey');
    assert.notEqual(keySlot('work'), keySlot('home'));
    assert.ok(!['gatewayStudio.apiKey'].includes(keySlot('work')));
  });
});
