/**
 * The report: Markdown (the view and the export are the same text), and the figures kept per
 * profile and model for the history (numbers and verdicts only: never a prompt, an answer or a
 * key). Everything a relay or a settings file wrote (model and profile names, error messages,
 * evidence) is escaped, so it shows as text: no link, image, HTML or table cell it could open.
 */
import * as l10n from '@vscode/l10n';
import type { CheckupReport, ProbeId, ProbeResult, Spent, Verdict } from './types';

/** Markdown's active characters, HTML's angle brackets and line breaks made inert. */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
      // The preview links bare addresses (linkify): a zero-width space keeps them text.
      .replace(/\.(?=[A-Za-z])/g, '.\u200b')
      .replace(/:(?=\/\/)/g, ':\u200b')
      .replace(/@/g, '@\u200b')
      .replace(/[\\`*_{}[\]()#+\-.!|<>~&:]/g, (c) => `\\${c}`)
      .slice(0, 600)
  );
}

const VERDICT_WORDS = (): Record<Verdict, string> => ({
  ok: l10n.t('OK'),
  problem: l10n.t('Problem'),
  'cannot-tell': l10n.t('Cannot tell'),
  refused: l10n.t('Refused'),
  skipped: l10n.t('Skipped'),
});

const PROBE_NAMES = (): Record<ProbeId, string> => ({
  tokenizer: l10n.t('Tokenizer fingerprint'),
  window: l10n.t('Context window'),
  tools: l10n.t('Tool calling and reasoning'),
  speed: l10n.t('Speed'),
  bill: l10n.t('The bill'),
});

/** One stored check-up: figures only. */
export interface HistoryEntry {
  at: number;
  profile: string;
  model: string;
  verdicts: Partial<Record<ProbeId, Verdict>>;
  figures: Partial<Record<ProbeId, Record<string, number>>>;
  spentQuota?: number;
}

export function historyEntry(r: CheckupReport): HistoryEntry {
  return {
    at: r.endedAt,
    profile: r.profile,
    model: r.model,
    verdicts: Object.fromEntries(r.probes.map((p) => [p.probe, p.verdict])),
    figures: Object.fromEntries(r.probes.map((p) => [p.probe, p.figures])),
    ...(r.spent.quota !== undefined ? { spentQuota: r.spent.quota } : {}),
  };
}

const BARS = '▁▂▃▄▅▆▇█';

/** A one-line chart of `values` (oldest first), scaled between their least and greatest. */
export function sparkline(values: readonly number[]): string {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return '';
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((v) => BARS[hi === lo ? 3 : Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1))]).join('');
}

/** The figures charted over time, when the history has them. */
const CHARTED: ReadonlyArray<[ProbeId, string, () => string]> = [
  ['speed', 'ttftMs', () => l10n.t('Time to first token (ms)')],
  ['speed', 'tokensPerSecond', () => l10n.t('Tokens per second')],
  ['bill', 'multiplier', () => l10n.t('Billed multiplier')],
  ['tools', 'wellFormed', () => l10n.t('Well-formed tool cases')],
];

export interface ReportText {
  /** A cost in the relay's unit ("$0.0012"); undefined quota gives "?". */
  money(quota: number | undefined): string;
}

function spentLine(s: Spent, t: ReportText): string {
  return l10n.t(
    '{0} requests, {1} prompt + {2} completion tokens, {3}',
    s.requests,
    s.promptTokens,
    s.completionTokens,
    t.money(s.quota),
  );
}

function row(p: ProbeResult, t: ReportText): string {
  const cells = [
    PROBE_NAMES()[p.probe],
    `**${VERDICT_WORDS()[p.verdict]}**`,
    [escapeMarkdown(p.summary), ...p.evidence.map(escapeMarkdown)].join('<br>'),
    p.spent.requests ? t.money(p.spent.quota) : '—',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The report as Markdown, with the history's charts (same profile and model, oldest first). */
export function renderReport(r: CheckupReport, t: ReportText, history: readonly HistoryEntry[] = []): string {
  const lines = [
    `# ${l10n.t('Relay check-up')}: ${escapeMarkdown(r.model)}`,
    '',
    `- ${l10n.t('Profile')}: ${escapeMarkdown(r.profile)}`,
    `- ${l10n.t('Relay')}: ${escapeMarkdown(r.gateway)}`,
    `- ${l10n.t('When')}: ${new Date(r.startedAt).toISOString()}`,
    `- ${l10n.t('Estimated before the run')}: ${spentLine(r.estimate, t)}`,
    `- ${l10n.t('Spent')}: ${spentLine(r.spent, t)}${r.stopped ? ` (${l10n.t('stopped halfway')})` : ''}`,
    '',
    `| ${l10n.t('Probe')} | ${l10n.t('Verdict')} | ${l10n.t('Evidence')} | ${l10n.t('Cost')} |`,
    '| --- | --- | --- | --- |',
    ...r.probes.map((p) => row(p, t)),
  ];
  const charts = CHARTED.map(([probe, key, label]) => {
    const values = history.map((h) => h.figures[probe]?.[key]).filter((v): v is number => typeof v === 'number');
    return values.length > 1 ? `- ${label()}: ${sparkline(values)} (${values.map((v) => String(v)).join(', ')})` : '';
  }).filter((l) => l !== '');
  if (charts.length) lines.push('', `## ${l10n.t('Over time')}`, '', ...charts);
  lines.push(
    '',
    l10n.t(
      'What a check-up cannot show: a relay that fakes its usage counts, or serves the claimed model only to probes like these.',
    ),
    '',
  );
  return lines.join('\n');
}
