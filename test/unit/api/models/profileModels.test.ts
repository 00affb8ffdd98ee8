import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { offeredAsDefault, profileModelId, splitProfileModelId } from '../../../../src/api/models/profileModels';
import { readProfiles } from '../../../../src/api/transport/profiles';

const defaults = { chatModel: 'gw-chat', videoModel: 'vendor-video-1.5' };

void describe('model ids across profiles', () => {
  void it("model ids stay stable for Default and apart for two profiles' same id", () => {
    const { profiles } = readProfiles([{ id: 'b', baseUrl: 'https://b' }], defaults);
    assert.equal(profileModelId('default', 'gw-chat'), 'gw-chat');
    assert.equal(profileModelId('b', 'gw-chat'), 'b|gw-chat');
    assert.deepEqual(splitProfileModelId('b|gw-chat', profiles), { profile: 'b', model: 'gw-chat' });
    assert.deepEqual(splitProfileModelId('b|org/m|x', profiles), { profile: 'b', model: 'org/m|x' });
    assert.deepEqual(splitProfileModelId('gw-chat', profiles), { profile: 'default', model: 'gw-chat' });
  });

  void it("an id with a slash is Default's own, even the earlier form of a profile's model (b/gw-chat)", () => {
    const { profiles } = readProfiles([{ id: 'b', baseUrl: 'https://b' }], defaults);
    assert.deepEqual(splitProfileModelId('vendor/model', profiles), { profile: 'default', model: 'vendor/model' });
    assert.deepEqual(splitProfileModelId('b/gw-chat', profiles), { profile: 'default', model: 'b/gw-chat' });
  });

  void it('a Default id holding the mark is not offered under it, so it cannot pass for a profile', () => {
    assert.equal(offeredAsDefault('openai/gpt-4o'), true);
    assert.equal(offeredAsDefault('b|gw-chat'), false);
  });
});
