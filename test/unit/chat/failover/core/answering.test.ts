// Who a chat backend's requests are billed to (src/chat/failover/core/answering.ts): the answer's
// price and the spend caps' quote before each request both ask it. The chat's backend is a
// FailoverBackend, so before its first request it must name the conversation's own profile and
// relay: the caps once asked for a plain client only, got '' for the failover backend, found no
// account for that gateway, and said "not checked: no price" instead of pausing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { answering } from '../../../../../src/chat/failover/core/answering';
import { CoolDowns } from '../../../../../src/chat/failover/core/coolDowns';
import {
  FailoverBackend,
  ModelLists,
  type FailoverTarget,
} from '../../../../../src/chat/failover/core/failoverBackend';
import { readFailoverLists } from '../../../../../src/chat/failover/core/failoverPlan';
import { useGateway } from '../../../../support/helpers';

const a = useGateway({});
const b = useGateway({});

function backend(): FailoverBackend {
  const target = (id: 'a' | 'b'): FailoverTarget => {
    const g = id === 'a' ? a : b;
    const client = new GatewayClient({ baseUrl: g.url, apiKey: g.keys.valid, maxRetries: 0 });
    return { profileId: id, name: id.toUpperCase(), client, relay: client.http.baseUrl };
  };
  return new FailoverBackend(target('a'), {
    lists: () => readFailoverLists({ 'gw-chat': ['a', 'b'] }),
    profiles: () => [
      { id: 'a', name: 'A', problems: [] },
      { id: 'b', name: 'B', problems: [] },
    ],
    target: (id) => Promise.resolve(target(id as 'a' | 'b')),
    coolDowns: new CoolDowns({ load: () => ({}), save: () => undefined }),
    models: new ModelLists(),
    timeText: () => 'HH:MM',
    log: () => undefined,
  });
}

void describe('answering', () => {
  void it("a failover backend before any request: the conversation's own profile and its relay", () => {
    const got = answering(backend());
    assert.deepEqual(got, { gateway: new GatewayClient({ baseUrl: a.url }).http.baseUrl, profile: 'a' });
    assert.notEqual(got.gateway, '');
  });

  void it('after a refusal sent the request on: the profile that answered (its account is billed)', async () => {
    a.fault({ status: 429, retryAfter: 120 });
    const f = backend();
    await f.chat({ model: 'gw-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(answering(f), { gateway: new GatewayClient({ baseUrl: b.url }).http.baseUrl, profile: 'b' });
  });

  void it('a plain client: its base URL, no profile; anything else: no gateway', () => {
    const client = new GatewayClient({ baseUrl: `${a.url}/v1/` });
    assert.deepEqual(answering(client), { gateway: client.http.baseUrl });
    assert.deepEqual(answering({}), { gateway: '' });
  });
});
