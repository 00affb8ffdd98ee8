import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileModelId, splitProfileModelId } from '../../../src/api/profileModels';
import { readProfiles } from '../../../src/api/profiles';

const defaults = { chatModel: 'gw-chat', videoModel: 'vendor-video-1.5' };

void describe('model ids across profiles', () => {
  void it("model ids stay stable for Default and apart for two profiles' same id", () => {
    const { profiles } = readProfiles([{ id: 'b', baseUrl: 'https://b' }], defaults);
    assert.equal(profileModelId('default', 'gw-chat'), 'gw-chat');
    assert.equal(profileModelId('b', 'gw-chat'), 'b/gw-chat');
    assert.deepEqual(splitProfileModelId('b/gw-chat', profiles), { profile: 'b', model: 'gw-chat' });
    assert.deepEqual(splitProfileModelId('gw-chat', profiles), { profile: 'default', model: 'gw-chat' });
    assert.deepEqual(splitProfileModelId('vendor/model', profiles), { profile: 'default', model: 'vendor/model' });
  });
});
