// The usage ledger: rows per day and model, a year kept, CSV that a spreadsheet cannot be made to
// run, and nothing stored but figures and names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD } from '../../../../../src/account/balance/core/money';
import { LEDGER_KEY, MAX_DAYS, UsageLedger, csvCell, dayOf } from '../../../../../src/account/spend/core/ledger';
import { MemoryStorage } from '../../../../support/memoryStorage';

const gwUrl = 'https://gw.example/v1';

void describe('UsageLedger', () => {
  void it('adds answers and clips per day and model; today is what was computed today', async () => {
    const store = new MemoryStorage();
    const now = Date.parse('2026-11-25T10:00:00');
    const l = new UsageLedger(store, () => now);
    await l.recordAnswer({
      gateway: gwUrl,
      model: 'gw-chat',
      usage: { prompt_tokens: 10, completion_tokens: 2 },
      cost: { quota: 30, estimate: false },
      unit: USD,
    });
    await l.recordAnswer({ gateway: gwUrl, model: 'gw-chat', cost: { estimate: true, reason: 'no-usage' }, unit: USD });
    await l.recordClip({
      gateway: gwUrl,
      model: 'vendor-image-video',
      seconds: 4,
      cost: { quota: 50_000, estimate: false },
      unit: USD,
    });
    await l.recordCharge({ gateway: gwUrl, model: 'vendor-image-video', quota: 50_000, unit: USD });
    const rows = l.rows();
    assert.equal(rows.length, 2);
    const chat = rows.find((r) => r.model === 'gw-chat')!;
    assert.equal(chat.requests, 2);
    assert.equal(chat.promptTokens, 10);
    assert.equal(chat.unpriced, 1);
    assert.equal(chat.gateway, 'https://gw.example');
    assert.equal(l.todayQuota(gwUrl), 50_030);
    // It survives a restart.
    assert.equal(new UsageLedger(store, () => now).rows().length, 2);
  });

  void it('keeps at most a year of days', async () => {
    const store = new MemoryStorage();
    let now = Date.parse('2025-01-01T12:00:00');
    const l = new UsageLedger(store, () => now);
    for (let i = 0; i < MAX_DAYS + 30; i++) {
      await l.recordAnswer({ gateway: gwUrl, model: 'm', cost: { quota: 1, estimate: false }, unit: USD });
      now += 86_400_000;
    }
    const days = new Set(l.rows().map((r) => r.day));
    assert.ok(days.size <= MAX_DAYS, `${days.size} days`);
    assert.ok(!days.has(dayOf(Date.parse('2025-01-01T12:00:00'))));
  });

  void it('stores no key and no text; a damaged store is ignored row by row', async () => {
    const store = new MemoryStorage();
    await store.update(LEDGER_KEY, [{ day: 'x' }, 5, null]);
    const l = new UsageLedger(store);
    assert.equal(l.rows().length, 0);
    await l.recordAnswer({
      gateway: 'https://u:sk-secret@gw.example/v1',
      model: 'm\u0000',
      cost: { quota: 1, estimate: false },
      unit: USD,
    });
    const saved = JSON.stringify(store.get(LEDGER_KEY));
    assert.ok(!saved.includes('sk-secret'));
    assert.ok(!saved.includes('\\u0000'));
  });

  void it('CSV: quoted cells, defused formulas, costs with four decimals', async () => {
    const store = new MemoryStorage();
    const l = new UsageLedger(store, () => Date.parse('2026-11-25T10:00:00'));
    await l.recordAnswer({
      gateway: gwUrl,
      model: '=HYPERLINK("x")',
      cost: { quota: 600, estimate: false },
      unit: USD,
    });
    const csv = l.toCsv();
    const [head, row] = csv.trim().split('\r\n');
    assert.match(head!, /^day,gateway,model,requests/);
    assert.match(row!, /^2026-11-25,https:\/\/gw\.example,"'=HYPERLINK\(""x""\)",1,/);
    assert.match(row!, /,0\.0012,0\.0000,USD,0,0\.0000,0,0$/);
    assert.equal(csvCell('-12.5'), '-12.5');
    assert.equal(csvCell('@cmd'), "'@cmd");
  });

  void it('an answer without usage, priced from the tokens counted here, is counted as an estimate, before or after the answer', async () => {
    const l = new UsageLedger(new MemoryStorage(), () => Date.parse('2026-11-25T10:00:00'));
    const noUsage = {
      gateway: gwUrl,
      model: 'gw-chat',
      cost: { estimate: true, reason: 'no-usage' as const },
      unit: USD,
    };
    // The answer first, then its estimate.
    await l.recordAnswer(noUsage);
    assert.equal(l.rows()[0]!.unpriced, 1);
    await l.recordEstimate({ gateway: gwUrl, model: 'gw-chat', quota: 700, unit: USD });
    // The estimate first (the chat priced it before the ledger counted it), then the answer.
    await l.recordEstimate({ gateway: gwUrl, model: 'gw-chat', quota: 300, unit: USD });
    await l.recordAnswer(noUsage);
    await l.recordAnswer({ gateway: gwUrl, model: 'gw-chat', cost: { quota: 1000, estimate: false }, unit: USD });
    const r = l.rows()[0]!;
    assert.equal(r.requests, 3);
    assert.equal(r.unpriced, 0, 'both answers have a figure now');
    assert.equal(r.costQuota, 1000, 'the exact figure stays apart');
    assert.equal(r.estimatedQuota, 1000);
    assert.equal(r.estimates, 2);
    assert.equal(l.todayQuota(gwUrl), 2000, "today's spend counts the estimates");
    assert.match(l.toCsv().trim().split('\r\n')[1]!, /,0\.0020,0\.0000,USD,0,0\.0020,2,0$/);
  });

  void it('keeps failed-yet-charged video tasks per gateway, for the check-up', async () => {
    const store = new MemoryStorage();
    const l = new UsageLedger(store, () => Date.parse('2026-03-01T10:00:00'));
    await l.recordFailedCharge({ gateway: 'https://relay.example/v1', model: 'clip-a', quota: 400, unit: USD });
    await l.recordFailedCharge({ gateway: 'https://relay.example/other', model: 'clip-b', quota: 100, unit: USD });
    await l.recordFailedCharge({ gateway: 'https://another.example/v1', model: 'clip-a', quota: 7, unit: USD });
    assert.deepEqual(l.failedCharges('https://relay.example/v1'), {
      tasks: 2,
      quota: 500,
      models: ['clip-a', 'clip-b'],
    });
    assert.deepEqual(l.failedCharges('https://none.example'), { tasks: 0, quota: 0, models: [] });
    // Kept across a reload; a stored row with a damaged count is dropped, not trusted.
    assert.equal(new UsageLedger(store).failedCharges('https://relay.example').tasks, 2);
    const rows = store.get<Array<Record<string, unknown>>>(LEDGER_KEY)!;
    store.data.set(
      LEDGER_KEY,
      rows.map((r) => ({ ...r, failedCharged: 'many' })),
    );
    assert.equal(new UsageLedger(store).failedCharges('https://relay.example').tasks, 0);
  });
});
