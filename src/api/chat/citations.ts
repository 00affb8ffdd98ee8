// Web search citations (`url_citation` annotations) in both shapes relays send them: chat
// completions nest them (`{type, url_citation: {url, title}}`, OpenRouter's web plugin), the
// Responses API has them flat (`{type, url, title}`, its `web_search` tool). Read while the answer
// streams, so this is kept small: how they are shown is ./searchNotes, loaded only when there are some.
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

/** How many web searches a usage reports (OpenRouter and Anthropic-style `server_tool_use`). */
export function searchesIn(usage: Usage | undefined): number | undefined {
  const n = obj(usage?.server_tool_use)?.web_search_requests;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}
