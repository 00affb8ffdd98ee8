import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { EXPLORE } from '../../../../../src/chat/subagents/core/definitions';
import { resultText, runSubagent, type SubagentProgress } from '../../../../../src/chat/subagents/core/subagentRun';
import { useGateway } from '../../../../support/helpers';

const usd = { kind: 'USD', quotaPerUnit: 500000, rateMicro: 1000000, symbol: '$' } as const;

void describe('runSubagent against the local gateway', () => {
  const gw = useGateway({ models: { 'gw-mini': 'gw-chat' } });

  void it('answers the task in a fresh context on its model, priced, with progress', async () => {
    const progress: SubagentProgress[] = [];
    const out = await runSubagent({
      agent: EXPLORE,
      task: '#say Found it in a.ts.',
      model: 'gw-mini',
      backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
      executor: undefined,
      maxRounds: 3,
      signal: new AbortController().signal,
      conversationId: 'c1',
      price: (q) => Promise.resolve({ quota: (q.usage?.prompt_tokens ?? 0) * 2, unit: usd, estimate: false }),
      onProgress: (p) => progress.push(p),
    });
    assert.equal(out.status, 'done');
    assert.equal(out.summary, 'Found it in a.ts.');
    assert.equal(out.requests, 1);
    const body = gw.requests().find((r) => r.method === 'POST')?.body as {
      model: string;
      messages: { role: string }[];
    };
    assert.equal(body.model, 'gw-mini');
    assert.deepEqual(
      body.messages.map((m) => m.role),
      ['system', 'user'],
      'its own context: instructions and the task only',
    );
    assert.ok(out.cost && out.cost.quota > 0 && !out.cost.estimate);
    assert.equal(progress.at(-1)?.cost?.quota, out.cost.quota);
  });

  void it('says why a run did not finish, in front of what it found', () => {
    const base = { summary: 'half', requests: 3, rounds: 2 };
    assert.equal(resultText('Explore', { ...base, status: 'done' }, 5), 'half');
    assert.match(resultText('Explore', { ...base, status: 'max-rounds' }, 5), /limit of 5 tool rounds[\s\S]*half$/);
    assert.match(resultText('Explore', { ...base, status: 'cap', summary: '' }, 5), /spend cap[\s\S]*\(no summary\)$/);
    assert.match(resultText('Explore', { ...base, status: 'error', problem: 'HTTP 500' }, 5), /failed: HTTP 500/);
  });
});
