// Which gateway a model id reaches when there are several profiles (issue 35 item 7), over real
// HTTP against two local gateways: Default is a relay that names models `vendor/model`, the
// other profile is called `openai` and serves `gpt-4o` behind its own key and header.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../src/api/client';
import { readModelHeaders } from '../../../../src/api/transport/headerRules';
import { profileModelId, splitProfileModelId } from '../../../../src/api/models/profileModels';
import { readProfiles } from '../../../../src/api/transport/profiles';
import { SECOND_GATEWAY } from '../../../gateway/keys';
import { useGateway } from '../../../support/helpers';

const relay = useGateway({ models: { 'openai/gpt-4o': 'gw-chat' } });
const openai = useGateway({ ...SECOND_GATEWAY, models: { ...SECOND_GATEWAY.models, 'gpt-4o': 'gw-chat' } });
const { name, value } = SECOND_GATEWAY.requiredHeader;

function profiles() {
  const list = readProfiles([{ name: 'openai', baseUrl: openai.url, headers: { [name]: value } }], {
    chatModel: 'gw-chat',
    videoModel: 'vendor-image-video',
  });
  assert.deepEqual(list.problems, []);
  return list.profiles;
}

/**
 * A client for a profile as src/platform/gateway.ts builds one: that profile's address, key and
 * headers, and the overrides' model headers read for that profile.
 */
function clientFor(profile: string, overrides: unknown = {}): GatewayClient {
  const p = profiles().find((x) => x.id === profile)!;
  const [baseUrl, apiKey] = profile === 'default' ? [relay.url, relay.keys.valid] : [p.baseUrl, openai.keys.valid];
  const modelHeaders = readModelHeaders(overrides, profile).headers;
  return new GatewayClient({ baseUrl, apiKey, headers: p.headers, modelHeaders, maxRetries: 0 });
}

/** Sends one chat as VS Code's picker would for `id`: split, then asked of that profile's gateway. */
async function ask(id: string, overrides?: unknown): Promise<void> {
  const target = splitProfileModelId(id, profiles());
  assert.ok(target, `${id} names a profile`);
  await clientFor(target.profile, overrides).streamChat({
    model: target.model,
    messages: [{ role: 'user', content: 'hi' }],
  });
}

const chats = (gw: typeof relay) => gw.requests().filter((r) => r.route === '/v1/chat/completions');

void describe('model ids of several profiles over two gateways', () => {
  void it("a Default model openai/gpt-4o goes to Default's gateway with Default's key, though a profile is called openai", async () => {
    await ask('openai/gpt-4o');
    const [r, ...more] = chats(relay);
    assert.deepEqual(more, []);
    assert.equal(r?.auth, 'valid', "Default's key");
    assert.equal((r?.body as { model?: string }).model, 'openai/gpt-4o', 'the id as the gateway named it');
    assert.equal(r?.headers[name], undefined, "the openai profile's header stayed with it");
    assert.deepEqual(chats(openai), [], 'nothing reached the profile openai');

    // The profile's own gpt-4o has an id of its own, and goes there with its key.
    const own = profileModelId('openai', 'gpt-4o');
    assert.notEqual(own, 'openai/gpt-4o');
    await ask(own);
    const [o] = chats(openai);
    assert.equal(o?.auth, 'valid');
    assert.equal((o?.body as { model?: string }).model, 'gpt-4o');
    assert.equal(chats(relay).length, 1, 'no second request reached Default');
  });

  void it("an override's headers for a model reach only the gateway of the profile they were written for", async () => {
    relay.resetCounts();
    openai.resetCounts();
    const overrides = {
      'gw-chat': { headers: { 'x-tenant': 'default-${apiKey}' } },
      [profileModelId('openai', 'gw-chat')]: { headers: { 'x-openai-only': 'o-${apiKey}' } },
    };
    await ask('gw-chat', overrides);
    await ask(profileModelId('openai', 'gw-chat'), overrides);
    const [d] = chats(relay);
    const [o] = chats(openai);
    assert.equal(d?.headers['x-tenant'], `default-${relay.keys.valid}`);
    assert.equal(d?.headers['x-openai-only'], undefined, "the openai profile's header went to Default");
    assert.equal(o?.headers['x-openai-only'], `o-${openai.keys.valid}`);
    assert.equal(o?.headers['x-tenant'], undefined, "Default's header (and its key) went to the openai profile");
  });

  void it('an id of a profile that is not configured names no profile (never Default instead)', () => {
    assert.equal(splitProfileModelId(profileModelId('gone', 'gw-chat'), profiles()), undefined);
    assert.equal(splitProfileModelId('default|gw-chat', profiles()), undefined);
  });
});
