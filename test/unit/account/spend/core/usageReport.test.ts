// The usage view: the ledger's rows per day and model, totals in one unit, and cells that a
// gateway's model name cannot turn into a link, an image or HTML.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { USD, unitFromStatus } from '../../../../../src/account/balance/core/money';
import { UsageLedger } from '../../../../../src/account/spend/core/ledger';
import { REPORT_DAYS, codeCell, mdCell, usageMarkdown } from '../../../../../src/account/spend/core/usageReport';
import { MemoryStorage } from '../../../../support/memoryStorage';
import { comparePrices } from '../../../../../src/account/pricing/core/priceCompare';

const gw = 'https://gw.example/v1';

void describe('usageMarkdown', () => {
  void it('one table per day, newest first, a row per model with tokens, clips, cost and charge', async () => {
    let now = Date.parse('2026-11-25T10:00:00');
    const l = new UsageLedger(new MemoryStorage(), () => now);
    const usage = { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 40 } };
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', usage, cost: { quota: 2500, estimate: false }, unit: USD });
    now += 86_400_000;
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', usage, cost: { quota: 2500, estimate: false }, unit: USD });
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', cost: { estimate: true, reason: 'no-price' }, unit: USD });
    await l.recordClip({ gateway: gw, model: 'vid', seconds: 4, cost: { quota: 50_000, estimate: false }, unit: USD });
    await l.recordCharge({ gateway: gw, model: 'vid', quota: 50_000, unit: USD });
    const md = usageMarkdown(l.rows(), { generatedAt: 'now' });
    assert.ok(md.indexOf('## 2026-11-26') < md.indexOf('## 2026-11-25'), md);
    const day = md.slice(md.indexOf('## 2026-11-26'), md.indexOf('## 2026-11-25'));
    assert.match(day, /\| `gw-chat` \| 2 \| 100 \/ 20 \/ 40 \| 0 \| \$0\.005, 1 without a price \| — \|/);
    assert.match(day, /\| `vid` \| 0 \| 0 \/ 0 \/ 0 \| 1 \(4 s\) \| \$0\.10 \| \$0\.10 \|/);
    assert.match(day, /\| \*\*Total\*\* \| 2 \| 100 \/ 20 \/ 40 \| 1 \| \$0\.105 \| \$0\.10 \|/);
    assert.ok(!md.includes('Gateway |'), 'one gateway: no gateway column');
  });

  void it('estimates are shown apart, marked ≈, in the row and the total', async () => {
    const l = new UsageLedger(new MemoryStorage(), () => Date.parse('2026-11-25T10:00:00'));
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', cost: { quota: 2500, estimate: false }, unit: USD });
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', cost: { estimate: true, reason: 'no-usage' }, unit: USD });
    await l.recordEstimate({ gateway: gw, model: 'gw-chat', quota: 500, unit: USD });
    const md = usageMarkdown(l.rows(), { generatedAt: 'now' });
    assert.match(
      md,
      /\| `gw-chat` \| 2 \| 0 \/ 0 \/ 0 \| 0 \| \$0\.005 \+ ≈\$0\.001 estimated \(1 without usage\) \| — \|/,
    );
    assert.match(md, /\| \*\*Total\*\* \| 2 \| 0 \/ 0 \/ 0 \| 0 \| \$0\.005 \+ ≈\$0\.001 estimated \|/);
  });

  void it('several gateways get a column; totals in different units are not added', async () => {
    const l = new UsageLedger(new MemoryStorage(), () => Date.parse('2026-11-25T10:00:00'));
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 7 });
    await l.recordAnswer({ gateway: gw, model: 'a', cost: { quota: 500_000, estimate: false }, unit: USD });
    await l.recordAnswer({
      gateway: 'https://cn.example/v1',
      model: 'b',
      cost: { quota: 500_000, estimate: false },
      unit: cny,
    });
    const md = usageMarkdown(l.rows(), { generatedAt: 'now' });
    assert.match(md, /\| Model \| Gateway \|/);
    assert.match(md, /cn\.example/);
    assert.match(md, /\$1\.00 \+ ¥7\.00|¥7\.00 \+ \$1\.00/);
  });

  void it('a total adds the rows of each unit and shows one figure per unit', async () => {
    const l = new UsageLedger(new MemoryStorage(), () => Date.parse('2026-11-25T10:00:00'));
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 7 });
    for (const [model, unit] of [
      ['a', USD],
      ['b', USD],
      ['c', cny],
      ['d', cny],
    ] as const)
      await l.recordAnswer({ gateway: gw, model, cost: { quota: 500_000, estimate: false }, unit });
    const total = usageMarkdown(l.rows(), { generatedAt: 'now' })
      .split('\n')
      .find((line) => line.startsWith('| **Total**'));
    assert.match(total ?? '', /\| (\$2\.00 \+ ¥14\.00|¥14\.00 \+ \$2\.00) \|/, total);
  });

  void it('a hostile model name is text, not Markdown or HTML', () => {
    const cell = mdCell('x|<img src=x onerror=alert(1)>[link](https://evil)`code`\n# head');
    assert.ok(!/(^|[^\\])\|/.test(cell), cell);
    assert.ok(!cell.includes('<') && !cell.includes('\n'), cell);
    assert.ok(cell.includes('\\[link\\](https://evil)'), cell);
    const code = codeCell('a`b|<i>https://evil\n');
    assert.equal(code, "`a'b\\|<i>https://evil `");
  });

  void it('empty ledger: says so; more days than shown: says where the rest is', async () => {
    assert.match(usageMarkdown([], { generatedAt: 'now' }), /Nothing counted yet/);
    let now = Date.parse('2026-01-01T10:00:00');
    const l = new UsageLedger(new MemoryStorage(), () => now);
    for (let i = 0; i < REPORT_DAYS + 3; i++) {
      await l.recordAnswer({ gateway: gw, model: 'm', cost: { quota: 1, estimate: false }, unit: USD });
      now += 86_400_000;
    }
    const md = usageMarkdown(l.rows(), { generatedAt: 'now' });
    assert.equal(md.match(/^## /gm)?.length, REPORT_DAYS);
    assert.match(md, /3 older days are not shown here/);
  });
});

void describe('usageMarkdown across profiles (issue 39)', () => {
  void it("a Profile column names each row's profile (its gateway's host when no profile has it now)", async () => {
    const l = new UsageLedger(new MemoryStorage(), () => Date.parse('2026-11-25T10:00:00'));
    await l.recordAnswer({ gateway: gw, model: 'gw-chat', cost: { quota: 2500, estimate: false }, unit: USD });
    await l.recordAnswer({
      gateway: 'https://gone.example/v1',
      model: 'gw-chat',
      cost: { quota: 500, estimate: false },
      unit: USD,
    });
    const md = usageMarkdown(l.rows(), {
      generatedAt: 'now',
      // The ledger keeps origins: two profiles on one origin share its rows.
      profileOf: (g) => (g === 'https://gw.example' ? 'Work, Backup' : undefined),
    });
    assert.match(md, /\| Model \| Profile \| Requests/);
    assert.match(md, /\| `gw-chat` \| Work, Backup \| 1 \|/);
    assert.match(md, /\| `gw-chat` \| gone\.example \| 1 \|/);
  });

  void it("each model's price on every profile, cheapest first, in each profile's unit; names escaped", () => {
    const cny = unitFromStatus({ displayType: 'CNY', quotaPerUnit: 500_000, usdExchangeRate: 7 });
    const prices = comparePrices([
      { profile: 'Dear', unit: USD, prices: [{ model: 'gw-chat', source: 'gateway', input: 1.5, output: 6 }] },
      { profile: 'Cheap', unit: cny, prices: [{ model: 'gw-chat', source: 'gateway', input: 0.75, output: 3 }] },
      { profile: '[x](http://evil)', unit: USD, prices: [{ model: 'vid', source: 'gateway', perCall: 12_500 }] },
    ]);
    const md = usageMarkdown([], { generatedAt: 'now', prices });
    assert.match(md, /## Prices across profiles/);
    const cheap = md.indexOf('| `gw-chat` | Cheap |');
    const dear = md.indexOf('|  | Dear |');
    assert.ok(cheap > 0 && dear > cheap, md);
    assert.match(md, /\| `gw-chat` \| Cheap \| ¥10\.50 \| ¥42\.00 \| — \|/);
    assert.match(md, /\| {2}\| Dear \| \$3\.00 \| \$12\.00 \| — \|/);
    assert.match(md, /\| `vid` \| \\\[x\\\]\(http:\/\/evil\) \| — \| — \| \$0\.025 \|/);
  });
});
