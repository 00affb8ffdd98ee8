// The report as Markdown, and what a hostile relay or settings file could put in it: a model name,
// a profile name or an error message that tries to open a link, an image (a request elsewhere),
// HTML, a command link, or a new table row. All of it must stay text.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MarkdownIt from 'markdown-it';
import { escapeMarkdown, historyEntry, renderReport, sparkline } from '../../../../../src/account/checkup/core/report';
import type { CheckupReport } from '../../../../../src/account/checkup/core/types';

const spent = { requests: 3, promptTokens: 100, completionTokens: 10, quota: 250 };
const HOSTILE = [
  '![x](https://evil.example/track.png)',
  '[click](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
  '<img src=https://evil.example/a.png onerror=alert(1)>',
  'a | b |\n| injected | row |',
  'see https://evil.example/x and www.evil.example and evil.example',
  '`code` **bold** <script>alert(1)</script>',
].join(' ');

function report(over: Partial<CheckupReport> = {}): CheckupReport {
  return {
    profile: 'Relay',
    gateway: 'http://127.0.0.1:1/v1',
    model: 'gpt-4o',
    startedAt: 0,
    endedAt: 1000,
    stopped: false,
    estimate: spent,
    spent,
    probes: [
      {
        probe: 'tokenizer',
        verdict: 'problem',
        summary: 'The counts match cl100k',
        evidence: ['o200k: 1, 2 (off by 5)'],
        spent,
        figures: { off_o200k: 5 },
      },
      {
        probe: 'bill',
        verdict: 'ok',
        summary: HOSTILE,
        evidence: [HOSTILE],
        spent: { requests: 0, promptTokens: 0, completionTokens: 0 },
        figures: { multiplier: 1 },
      },
    ],
    ...over,
  };
}

const money = { money: (q: number | undefined) => (q === undefined ? '?' : `$${(q / 500000).toFixed(4)}`) };

void describe('check-up report', () => {
  void it('one row per probe with its verdict, evidence and cost, and the spend against the estimate', () => {
    const md = renderReport(report(), money);
    assert.match(
      md,
      /\| Tokenizer fingerprint \| \*\*Problem\*\* \| The counts match cl100k<br>o200k\\: 1, 2 \\\(off by 5\\\) \| \$0\.0005 \|/,
    );
    assert.match(md, /Estimated before the run: 3 requests, 100 prompt \+ 10 completion tokens, \$0\.0005/);
    assert.doesNotMatch(md, /stopped halfway/);
    assert.match(renderReport(report({ stopped: true }), money), /stopped halfway/);
  });

  void it('what a relay or profile writes renders as text: no link, image, HTML or extra row', () => {
    const md = renderReport(report({ model: HOSTILE, profile: HOSTILE }), money);
    const html = new MarkdownIt({ html: true, linkify: true }).render(md);
    assert.doesNotMatch(html, /<a\s|<img|<script|href=/i, html);
    assert.equal((html.match(/<tr>/g) ?? []).length, 3, 'a header and two probe rows');
  });

  void it('escapes every active character and breaks bare addresses', () => {
    assert.equal(escapeMarkdown('a\nb'), 'a b');
    assert.match(escapeMarkdown('[x](y)'), /^\\\[x\\\]\\\(y\\\)$/);
    assert.ok(escapeMarkdown('x'.repeat(2000)).length <= 600);
  });

  void it('keeps figures only, and charts them over time', () => {
    const h = historyEntry(report());
    assert.deepEqual(Object.keys(h).sort(), ['at', 'figures', 'model', 'profile', 'spentQuota', 'verdicts']);
    assert.doesNotMatch(JSON.stringify(h), /match cl100k|evil/);
    assert.equal(sparkline([1, 2, 3]), '▁▅█');
    const md = renderReport(report(), money, [h, { ...h, figures: { bill: { multiplier: 1.5 } } }]);
    assert.match(md, /Billed multiplier: ▁█ \(1, 1\.5\)/);
  });
});
