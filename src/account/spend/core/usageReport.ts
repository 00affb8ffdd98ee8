/**
 * The usage view: the ledger's rows (the same data as the CSV export) as a Markdown page, one
 * table per day, one row per model (and gateway, when more than one was used): requests, tokens,
 * clips, the cost computed from usage × price and what the balance showed was charged. Model
 * names come from gateways: every cell is escaped, so a name cannot add a link, an image or HTML.
 */
import * as l10n from '@vscode/l10n';
import { sameUnit } from '../../../shared/money';
import { formatQuota } from '../../balance/core/money';
import type { LedgerRow } from './ledger';
import type { PriceOffer } from '../../pricing/core/priceCompare';

/** What the report adds beside the ledger: whose profile each gateway is, and the prices across profiles. */
export interface ReportExtras {
  /** The profile name(s) of a gateway's base URL; undefined when no profile has it now. */
  profileOf?: (gateway: string) => string | undefined;
  /** Per model, its price on each profile that lists it, cheapest first (priceCompare.ts). */
  prices?: Map<string, PriceOffer[]>;
}

/** Models shown at most in the price table. */
export const PRICE_TABLE_MODELS = 300;

/** Days shown at most (the ledger keeps a year); older ones are in the CSV export. */
export const REPORT_DAYS = 92;

/** A table cell: no line breaks, no pipe, no Markdown or HTML that would do anything. */
export function mdCell(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*_[\]<>|~&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`));
}

/** A name from a gateway as code: shown as written, never a link (not even an autolinked URL). */
export function codeCell(text: string): string {
  const s = text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/`/g, "'")
    .replace(/\|/g, '\\|');
  return s.trim() === '' ? '' : `\`${s}\``;
}

function host(origin: string): string {
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}

/** One sum per unit, in the order the units first appear: figures in different units are not added. */
function money(rows: LedgerRow[], pick: (r: LedgerRow) => number): string {
  const sums: { unit: LedgerRow['unit']; quota: number }[] = [];
  for (const r of rows) {
    const same = sums.find((x) => sameUnit(x.unit, r.unit));
    if (same) same.quota += pick(r);
    else sums.push({ unit: r.unit, quota: pick(r) });
  }
  return sums.map((x) => formatQuota(x.quota, x.unit, { precise: true })).join(' + ');
}

const sum = (rows: LedgerRow[], pick: (r: LedgerRow) => number) => rows.reduce((n, r) => n + pick(r), 0);

/** The clips cell, with the images made beside it when there are any. */
function clipsAndImages(clips: string, images: number): string {
  return images ? `${clips} / ${l10n.t('{0} image(s)', images)}` : clips;
}

/** A day's table head: the columns and the alignment row. */
function tableHead(manyGateways: boolean, byProfile: boolean): string[] {
  const head = [
    l10n.t('Model'),
    ...(manyGateways ? [byProfile ? l10n.t('Profile') : l10n.t('Gateway')] : []),
    l10n.t('Requests'),
    l10n.t('Tokens (prompt / completion / cached)'),
    l10n.t('Clips (seconds) / images'),
    l10n.t('Cost (usage × price)'),
    l10n.t('Charged (balance change)'),
  ];
  return [`| ${head.map(mdCell).join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
}

/** The report as Markdown; `now` names the day it was made. */
export function usageMarkdown(rows: LedgerRow[], o: { generatedAt: string } & ReportExtras): string {
  const out: string[] = [`# ${l10n.t('Gateway Studio usage')}`, ''];
  out.push(
    l10n.t('Made {0}. Stored on this computer only: figures and model names, never a key or a message.', o.generatedAt),
  );
  out.push('');
  if (rows.length === 0) {
    out.push(l10n.t('Nothing counted yet: answers and clips appear here once the gateway has billed them.'));
    out.push(...priceTable(o.prices));
    return out.join('\n') + '\n';
  }
  const byProfile = o.profileOf !== undefined;
  const manyGateways = byProfile || new Set(rows.map((r) => r.gateway)).size > 1;
  const where = (gateway: string): string => o.profileOf?.(gateway) ?? host(gateway);
  const days = [...new Set(rows.map((r) => r.day))].sort().reverse();
  for (const day of days.slice(0, REPORT_DAYS)) {
    const ofDay = rows.filter((r) => r.day === day);
    out.push(`## ${day}`, '');
    out.push(...tableHead(manyGateways, byProfile));
    for (const r of ofDay) {
      const exact = formatQuota(r.costQuota, r.unit, { precise: true });
      const cost = r.estimates
        ? l10n.t(
            '{0} + ≈{1} estimated ({2} without usage)',
            exact,
            formatQuota(r.estimatedQuota ?? 0, r.unit, { precise: true }),
            r.estimates,
          )
        : exact;
      const cells = [
        r.model,
        ...(manyGateways ? [where(r.gateway)] : []),
        String(r.requests),
        `${r.promptTokens} / ${r.completionTokens} / ${r.cachedTokens}`,
        clipsAndImages(r.clips ? `${r.clips} (${r.videoSeconds} s)` : '0', r.images ?? 0),
        r.unpriced ? l10n.t('{0}, {1} without a price', cost, r.unpriced) : cost,
        r.chargedQuota ? formatQuota(r.chargedQuota, r.unit, { precise: true }) : '—',
      ];
      out.push(`| ${cells.map((c, i) => (i === 0 ? codeCell(c) : mdCell(c))).join(' | ')} |`);
    }
    const total = [
      l10n.t('Total'),
      ...(manyGateways ? [''] : []),
      String(sum(ofDay, (r) => r.requests)),
      (['promptTokens', 'completionTokens', 'cachedTokens'] as const)
        .map((k) => String(sum(ofDay, (r) => r[k])))
        .join(' / '),
      clipsAndImages(
        String(sum(ofDay, (r) => r.clips)),
        sum(ofDay, (r) => r.images ?? 0),
      ),
      ofDay.some((r) => r.estimates)
        ? l10n.t(
            '{0} + ≈{1} estimated',
            money(ofDay, (r) => r.costQuota),
            money(ofDay, (r) => r.estimatedQuota ?? 0),
          )
        : money(ofDay, (r) => r.costQuota),
      money(ofDay, (r) => r.chargedQuota),
    ];
    out.push(`| ${total.map((c, i) => (c && i === 0 ? `**${mdCell(c)}**` : mdCell(c))).join(' | ')} |`, '');
  }
  if (days.length > REPORT_DAYS)
    out.push(
      l10n.t('{0} older days are not shown here; Export Usage writes them all to CSV.', days.length - REPORT_DAYS),
    );
  out.push(...priceTable(o.prices));
  return out.join('\n') + '\n';
}

/** A price per token as the price of a million, in the profile's unit; `—` when there is none. */
function perMillion(v: number | undefined, unit: LedgerRow['unit']): string {
  return v === undefined ? '—' : formatQuota(v * 1e6, unit, { precise: true });
}

/**
 * Each model's price on every profile that lists it, cheapest first: the gateway's price list ×
 * the key's group ratio, or the user's own price (`gatewayStudio.spend.prices`).
 */
function priceTable(prices: Map<string, PriceOffer[]> | undefined): string[] {
  if (!prices || prices.size === 0) return [];
  const out = [
    '',
    `## ${l10n.t('Prices across profiles')}`,
    '',
    l10n.t("Each profile's price list × its group ratio (or your gatewayStudio.spend.prices), cheapest first."),
    '',
  ];
  const head = [
    l10n.t('Model'),
    l10n.t('Profile'),
    l10n.t('Input / 1M tokens'),
    l10n.t('Output / 1M tokens'),
    l10n.t('Per call'),
  ];
  out.push(`| ${head.map(mdCell).join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`);
  const models = [...prices.entries()];
  for (const [model, offers] of models.slice(0, PRICE_TABLE_MODELS))
    for (const [i, x] of offers.entries()) {
      const cells = [
        i === 0 ? codeCell(model) : '',
        mdCell(x.profile),
        mdCell(perMillion(x.price.input, x.unit)),
        mdCell(perMillion(x.price.output, x.unit)),
        mdCell(x.price.perCall === undefined ? '—' : formatQuota(x.price.perCall, x.unit, { precise: true })),
      ];
      out.push(`| ${cells.join(' | ')} |`);
    }
  if (models.length > PRICE_TABLE_MODELS)
    out.push('', l10n.t('{0} more models are not shown.', models.length - PRICE_TABLE_MODELS));
  return out;
}
