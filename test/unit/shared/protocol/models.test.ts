import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelsHostMessages, modelsWebviewMessages } from '../../../../src/shared/protocol/models';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(modelsHostMessages);
const webview = union(modelsWebviewMessages);
const model = {
  id: 'gw-chat',
  ownedBy: 'gateway',
  capabilities: ['chat', 'tools'],
  supportsImages: true,
  reasoningEffort: 'high',
};

void test('every models message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    { type: 'models/list', models: [model, { id: 'gw-fim', capabilities: [], supportsImages: false }], loading: false },
    { type: 'models/list', models: [], loading: true },
    {
      type: 'models/list',
      models: [],
      loading: false,
      error: { title: 'The API key was refused (401)', detail: 'Set a valid key.', actions: ['setApiKey', 'retry'] },
    },
  ]);
  acceptsEvery(webview, [{ type: 'models/refresh' }]);
});

void test('a model list without its loading flag, a model without its image support, or an unknown error action is refused', () => {
  assert.equal(
    refusal(host, { type: 'models/list', models: [] }),
    'loading: Invalid input: expected boolean, received undefined',
  );
  const { supportsImages: _s, ...noImages } = model;
  assert.match(
    refusal(host, { type: 'models/list', models: [noImages], loading: false }),
    /^models\.0\.supportsImages: Invalid input: expected boolean/,
  );
  assert.match(
    refusal(host, { type: 'models/list', models: [{ ...model, capabilities: 'chat' }], loading: false }),
    /^models\.0\.capabilities: Invalid input: expected array/,
  );
  assert.match(
    refusal(host, {
      type: 'models/list',
      models: [],
      loading: false,
      error: { title: 't', detail: 'd', actions: ['reboot'] },
    }),
    /^error\.actions\.0: Invalid option/,
  );
  assert.match(refusal(webview, { type: 'models/reload' }), /^type: Invalid discriminator value/);
});
