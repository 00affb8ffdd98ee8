// The client tells its observer (the account's spend, src/platform/usageEvents.ts) about every
// answer it got, whole or cut short, and an observer that fails never fails the call.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient, type AnswerSeen } from '../../../src/api/client';
import { useGateway } from '../../support/helpers';

const gw = useGateway();
const ask = { model: 'gw-chat', messages: [{ role: 'user' as const, content: 'hello there' }] };

void describe('GatewayClient.observer', () => {
  void it('sees the model asked for and the usage, streamed and not', async () => {
    const seen: AnswerSeen[] = [];
    const c = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid }, { observer: (a) => seen.push(a) });
    const streamed = await c.streamChat(ask);
    const whole = await c.chat({ ...ask, model: 'gw-latest' });
    assert.equal(seen.length, 2);
    assert.deepEqual(seen[0], { model: 'gw-chat', usage: streamed.usage });
    assert.equal(seen[1]?.model, 'gw-latest', 'the model asked for, not the aligned version answered');
    assert.deepEqual(seen[1]?.usage, whole.usage);
  });

  void it('an observer that throws does not fail the answer; a refused request is not seen', async () => {
    let calls = 0;
    const observer = () => {
      calls += 1;
      throw new Error('observer bug');
    };
    const c = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }, { observer });
    const r = await c.streamChat(ask);
    assert.ok(r.message.content);
    gw.fault({ status: 401 });
    await assert.rejects(c.streamChat(ask));
    assert.equal(calls, 1);
  });
});
