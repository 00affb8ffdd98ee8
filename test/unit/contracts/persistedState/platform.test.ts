// The platform's persisted keys and the API keys' secret slots (src/contracts/persistedState/platform.ts):
// each key's name and store as stored today, its check, and its default on bad data.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activeProfileKey,
  apiKeySlot,
  gatewayOriginsKey,
  learnedProtocolsKey,
  profilesMigratedKey,
  SECRETS,
  walkthroughShownKey,
} from '../../../../src/contracts/persistedState/platform';
import { decodeState, loadState } from '../../../../src/contracts/persistedState/state';

const stored = (key: string, value: unknown) => ({
  get: (k: string) => (k === key ? value : undefined),
  update: () => Promise.resolve(),
});

void describe('platform keys keep the names and stores earlier versions wrote', () => {
  void it('names, stores and versions', () => {
    const all = [gatewayOriginsKey, learnedProtocolsKey, activeProfileKey, profilesMigratedKey, walkthroughShownKey];
    assert.deepEqual(
      all.map((k) => [k.key, k.store, k.version]),
      [
        ['gatewayStudio.workspaceGatewayOrigins', 'global', 1],
        ['gatewayStudio.models.learnedProtocols', 'global', 1],
        ['gatewayStudio.activeProfile', 'global', 1],
        ['gatewayStudio.profilesMigrated', 'global', 1],
        ['gatewayStudio.walkthroughShown', 'global', 1],
      ],
    );
  });
});

void describe('gateway origins (moved from parseAnswers in api/transport/gatewayAddress)', () => {
  void it('stored answers that are not answers are dropped', () => {
    assert.deepEqual(
      decodeState(gatewayOriginsKey, { 'https://a': 'allow', 'https://b': 'yes', 'https://c': 'refuse' }),
      {
        'https://a': 'allow',
        'https://c': 'refuse',
      },
    );
    assert.deepEqual(loadState(stored(gatewayOriginsKey.key, ['allow']), gatewayOriginsKey), {});
    assert.deepEqual(loadState(stored(gatewayOriginsKey.key, undefined), gatewayOriginsKey), {});
  });
});

void describe('the other platform keys', () => {
  void it('learnt protocols keep chat and responses only', () => {
    assert.deepEqual(decodeState(learnedProtocolsKey, { 'https://g m': 'responses', 'https://g n': 'ws', x: 1 }), {
      'https://g m': 'responses',
    });
    assert.deepEqual(loadState(stored(learnedProtocolsKey.key, 'responses'), learnedProtocolsKey), {});
  });

  void it('the active profile and the migration marker are strings, absent otherwise', () => {
    assert.equal(loadState(stored(activeProfileKey.key, 'relay'), activeProfileKey), 'relay');
    assert.equal(loadState(stored(activeProfileKey.key, 42), activeProfileKey), undefined);
    assert.equal(loadState(stored(profilesMigratedKey.key, '0.9.0'), profilesMigratedKey), '0.9.0');
    assert.equal(loadState(stored(profilesMigratedKey.key, { v: 1 }), profilesMigratedKey), undefined);
  });

  void it('the walkthrough flag is a boolean, false when anything else', () => {
    assert.equal(loadState(stored(walkthroughShownKey.key, true), walkthroughShownKey), true);
    assert.equal(loadState(stored(walkthroughShownKey.key, 'yes'), walkthroughShownKey), false);
    assert.equal(loadState(stored(walkthroughShownKey.key, undefined), walkthroughShownKey), false);
  });
});

void describe('secret slots', () => {
  void it('the Default profile keeps the one key of versions before profiles; others have their own slot', () => {
    assert.equal(SECRETS.apiKey.key, 'gatewayStudio.apiKey');
    assert.equal(apiKeySlot('default', true), 'gatewayStudio.apiKey');
    assert.equal(apiKeySlot('relay', false), 'gatewayStudio.apiKey.profile.relay');
  });
});
