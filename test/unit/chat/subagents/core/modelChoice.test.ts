import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { EXPLORE } from '../../../../../src/chat/subagents/core/definitions';
import { chooseModel, type ModelChoiceInput } from '../../../../../src/chat/subagents/core/modelChoice';
import { useGateway } from '../../../../support/helpers';

void describe('chooseModel against the local gateway', () => {
  const gw = useGateway();
  const input = (over: Partial<ModelChoiceInput>): ModelChoiceInput => ({
    asked: {},
    agent: EXPLORE,
    parent: { profile: 'main', model: 'gw-chat' },
    utilityModel: '',
    profiles: [
      { id: 'main', name: 'Main' },
      { id: 'cheap', name: 'Cheap relay' },
    ],
    backend: () => Promise.resolve(new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 })),
    signal: new AbortController().signal,
    ...over,
  });

  void it("takes the call's model, else the file's, else the utility model, else the conversation's", async () => {
    assert.deepEqual(await pick(input({ asked: { model: 'GW-Latest' } })), ['main', 'gw-latest']);
    const filed = { ...EXPLORE, models: ['nothing-here', 'gw-vision (vendor)'] };
    assert.deepEqual(await pick(input({ agent: filed })), ['main', 'gw-vision']);
    assert.deepEqual(await pick(input({ utilityModel: 'gw-reasoner' })), ['main', 'gw-reasoner']);
    assert.deepEqual(await pick(input({})), ['main', 'gw-chat']);
    assert.deepEqual(await pick(input({ asked: { profile: 'cheap relay', model: 'gw-chat' } })), ['cheap', 'gw-chat']);
  });

  void it('refuses an unknown profile, a model not listed and a file whose models are not listed, with the lists', async () => {
    const why = async (i: ModelChoiceInput) => {
      const c = await chooseModel(i);
      assert.ok(!c.ok);
      return c.why;
    };
    assert.match(await why(input({ asked: { profile: 'nope' } })), /no gateway profile "nope"\. Profiles: main, cheap/);
    assert.match(
      await why(input({ asked: { model: 'gpt-9' } })),
      /"gpt-9" is not listed on the profile "Main"\. Its models: gw-chat/,
    );
    assert.match(
      await why(input({ agent: { ...EXPLORE, models: ['opus-9'] } })),
      /None of the models of "Explore" \(opus-9\)/,
    );
    assert.match(await why(input({ utilityModel: 'gpt-9' })), /gatewayStudio\.utilityModel/);
    assert.match(await why(input({ asked: { profile: 'cheap' } })), /Name a "model" of the profile "Cheap relay"/);
  });
});

async function pick(i: ModelChoiceInput): Promise<[string, string]> {
  const c = await chooseModel(i);
  assert.ok(c.ok, c.ok ? '' : c.why);
  return [c.profile, c.model];
}
