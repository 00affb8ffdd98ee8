// Web search citations (`url_citation` annotations) in both shapes relays send them: chat
// completions nest them (`{type, url_citation: {url, title}}`, OpenRouter's web plugin), the
// Responses API has them flat (`{type, url, title}`, its `web_search` tool). The answer shows them
// as links under its text; the searches a relay counted go on the answer's notices with the cost.
import * as l10n from '@vscode/l10n';
import type { Citation, Usage } from '../transport/answer';

export type { Citation };

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The citations in a list of annotations, added to `into` once per URL; only http(s) links count. */
export function addCitations(into: Citation[], annotations: unknown): void {
  if (!Array.isArray(annotations)) return;
  for (const raw of annotations) {
    const a = obj(raw);
    if (a?.type !== 'url_citation') continue;
    const c = obj(a.url_citation) ?? a;
    const url = typeof c.url === 'string' ? c.url.trim() : '';
    if (!/^https?:\/\//i.test(url) || into.some((x) => x.url === url)) continue;
    const title = typeof c.title === 'string' ? c.title.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
    into.push(title ? { url, title } : { url });
  }
}

/** Markdown link text and target that cannot break out of the link. */
function link(c: Citation): string {
  const text = (c.title || new URL(c.url).host).replace(/([[\]\\])/g, '\\$1');
  return `[${text}](<${c.url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** The answer's text with its sources as numbered links under it (unchanged when there are none). */
export function withSources(content: string, citations: readonly Citation[]): string {
  if (citations.length === 0) return content;
  const lines = citations.map((c, i) => `${i + 1}. ${link(c)}`);
  return `${content.trimEnd()}\n\n${l10n.t('Sources:')}\n\n${lines.join('\n')}`;
}

/** How many web searches a usage reports (OpenRouter and Anthropic-style `server_tool_use`). */
export function searchesIn(usage: Usage | undefined): number | undefined {
  const n = obj(usage?.server_tool_use)?.web_search_requests;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The line under an answer that searched the web: how often, and whether the shown cost has it. */
export function searchNotice(searches: number, costReported: boolean): string {
  return costReported
    ? l10n.t('Searched the web {0} time(s); the cost the relay reported includes the searches.', searches)
    : l10n.t(
        'Searched the web {0} time(s); the relay does not report what the searches cost, so the cost shown leaves them out.',
        searches,
      );
}
