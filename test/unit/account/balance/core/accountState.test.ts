// One gateway's account state against the local gateway: how often it reads, what it remembers,
// and what it says in the log.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient } from '../../../../../src/api/transport/http';
import { AccountState, type AccountSnapshot } from '../../../../../src/account/balance/core/accountState';
import { transportOver } from '../../../../../src/api/account/transport';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway();
const reads = () => gw.counts()['GET /api/usage/token'] ?? 0;

function state(o: Partial<ConstructorParameters<typeof AccountState>[0]> = {}) {
  const logs: string[] = [];
  const changes: AccountSnapshot[] = [];
  const s = new AccountState({
    gateway: `${gw.url}/v1`,
    transport: async () => transportOver(new HttpClient({ baseUrl: gw.url, apiKey: gw.keys.valid })),
    log: (_l, m) => logs.push(m),
    onChange: (c) => changes.push(c),
    ...o,
  });
  return { s, logs, changes };
}

void describe('AccountState', () => {
  void it('reads, remembers the source, and reads at most once a minute while idle', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    let now = 1_000_000;
    let remembered: string | undefined;
    const { s } = state({ now: () => now, onSource: (src) => (remembered = src) });
    const first = await s.refreshIdle();
    assert.equal(first.status, 'ok');
    assert.equal(first.source, 'new-api');
    assert.equal(first.readAt, now);
    assert.equal(remembered, 'new-api');
    now += 30_000;
    await s.refreshIdle();
    assert.equal(reads(), 1, 'no second read within the minute');
    now += 31_000;
    await s.refreshIdle();
    assert.equal(reads(), 2);
  });

  void it('after answers: one read, debounced; concurrent reads share one request', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    const { s } = state({ debounceMs: 30 });
    s.afterUse();
    s.afterUse();
    s.afterUse();
    assert.equal(reads(), 0, 'nothing is read on the caller path');
    // The read lands 30 ms later plus a round trip, which a loaded machine stretches: wait for it
    // (2 s at most), then long enough past it for a second read to show if there were one.
    for (const deadline = Date.now() + 2000; reads() === 0 && Date.now() < deadline;) await sleep(10);
    await sleep(150);
    assert.equal(reads(), 1);
    await Promise.all([s.refreshNow(), s.refreshNow()]);
    assert.equal(reads(), 2);
    s.dispose();
  });

  void it('unavailable keeps the source and logs the reason once; none says so once', async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    const { s, logs } = state();
    await s.refreshNow();
    gw.setAccount({ endpoints: { 'usage-token': { body: { data: { total_available: -3 } } } } });
    const bad = await s.refreshNow();
    await s.refreshNow();
    assert.equal(bad.status, 'unavailable');
    assert.equal(bad.source, 'new-api');
    assert.equal(logs.filter((l) => /unavailable/.test(l)).length, 1);
    assert.match(logs.find((l) => /unavailable/.test(l)) ?? '', /negative/);
    gw.setAccount({
      endpoints: { status: 'missing', 'usage-token': 'missing', subscription: 'missing', usage: 'missing' },
    });
    await s.refreshNow();
    await s.refreshNow();
    assert.equal(s.snapshot().status, 'none');
    assert.equal(logs.filter((l) => /does not report a balance/.test(l)).length, 1);
  });

  void it("today's total is part of the snapshot and announced", () => {
    const { s, changes } = state();
    s.setToday(1234);
    assert.equal(s.snapshot().todayQuota, 1234);
    assert.equal(changes.at(-1)?.todayQuota, 1234);
  });
  void it("a failed read keeps the gateway's unit from its /api/status, not the last reading's", async () => {
    await fetch(`${gw.url}/__control/reset`, { method: 'POST' });
    const { s } = state();
    assert.equal((await s.refreshNow()).unit.kind, 'USD');
    gw.setAccount({ displayType: 'CNY', usdExchangeRate: 8, endpoints: { 'usage-token': 'error200' } });
    const after = await s.refreshNow();
    assert.equal(after.status, 'unavailable');
    assert.equal(after.unit.kind, 'CNY', 'prices and costs now count in the unit the gateway states');
  });
});
