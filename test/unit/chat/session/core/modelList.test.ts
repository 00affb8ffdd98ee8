import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelRecord } from '../../../../../src/api/models/models';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { ModelList } from '../../../../../src/chat/session/core/modelList';
import type { HostMessage } from '../../../../../src/shared/protocol';

function list(records: () => Promise<ModelRecord[]>, hasKey?: () => Promise<boolean>) {
  const sent: HostMessage[] = [];
  const warned: string[] = [];
  const m = new ModelList(records, (msg) => sent.push(msg), {
    log: { warn: (w) => warned.push(w) },
    ...(hasKey ? { hasKey } : {}),
  });
  return { m, sent, warned };
}

const records = (): ModelRecord[] =>
  [
    { id: 'gpt-x', owned_by: 'acme', capabilities: ['vision'], reasoning_effort: 'high' },
    { id: 'plain', owned_by: 'acme' },
    { id: 'sora-ish', owned_by: 'acme', capabilities: ['video'] },
  ] as ModelRecord[];

void test('the picker gets the chat models (video models left out), with images and effort, and loading around the load', async () => {
  const { m, sent } = list(async () => records());
  assert.equal(m.stale, true);
  await m.load();
  assert.equal(m.stale, false);
  assert.deepEqual(sent[0], { type: 'models/list', models: [], loading: true });
  assert.deepEqual(sent[1], {
    type: 'models/list',
    models: [
      { id: 'gpt-x', ownedBy: 'acme', capabilities: ['vision'], supportsImages: true, reasoningEffort: 'high' },
      { id: 'plain', ownedBy: 'acme', capabilities: [], supportsImages: false },
    ],
    loading: false,
    error: undefined,
  });
  assert.equal(m.info('plain')?.supportsImages, false);
  assert.equal(m.info('sora-ish'), undefined);
  m.invalidate();
  assert.equal(m.stale, true);
});

void test('a failed load keeps the models it had, says why and warns', async () => {
  let fail = false;
  const { m, sent, warned } = list(async () => {
    if (fail) throw new GatewayError('auth', 'bad key', { status: 401 });
    return records();
  });
  await m.load();
  fail = true;
  m.invalidate();
  await m.load();
  const last = sent.at(-1) as Extract<HostMessage, { type: 'models/list' }>;
  assert.equal(last.models.length, 2);
  assert.ok(last.error?.title.includes('401'), last.error?.title);
  assert.equal(warned.length, 1);
  assert.equal(m.stale, true, 'a failed load is tried again by the next view');
  assert.deepEqual(m.message(), last);
});

void test('with no key set, a refused list is no error: the page is told a key is needed, and a key clears it', async () => {
  const keys: { set?: string } = {};
  const { m, sent, warned } = list(
    async () => {
      if (!keys.set) throw new GatewayError('auth', 'no key', { status: 401 });
      return records();
    },
    async () => keys.set !== undefined,
  );
  await m.load();
  const refused = sent.at(-1) as Extract<HostMessage, { type: 'models/list' }>;
  assert.equal(refused.error, undefined, 'no 401 for a request that carried no key');
  assert.equal(refused.noCredentials, true);
  assert.match(warned[0] ?? '', /none is set/);
  assert.deepEqual(m.message(), refused, 'a page that loads later is told the same');
  assert.equal(m.stale, true);
  keys.set = 'sk-set-now';
  m.invalidate();
  await m.load();
  const listed = sent.at(-1) as Extract<HostMessage, { type: 'models/list' }>;
  assert.equal(listed.noCredentials, undefined);
  assert.equal(listed.models.length, 2);
});

void test('with no key set, a failure that is not a refusal is still shown (the gateway is down, the address is wrong)', async () => {
  const { m, sent } = list(
    async () => {
      throw new GatewayError('network', 'connection refused');
    },
    async () => false,
  );
  await m.load();
  const last = sent.at(-1) as Extract<HostMessage, { type: 'models/list' }>;
  assert.equal(last.noCredentials, undefined);
  assert.ok(last.error, 'the network failure is shown');
});

void test('a key that is set and refused is the 401 it always was', async () => {
  const { m, sent } = list(
    async () => {
      throw new GatewayError('auth', 'bad key', { status: 401 });
    },
    async () => true,
  );
  await m.load();
  const last = sent.at(-1) as Extract<HostMessage, { type: 'models/list' }>;
  assert.equal(last.noCredentials, undefined);
  assert.ok(last.error?.title.includes('401'), last.error?.title);
});
