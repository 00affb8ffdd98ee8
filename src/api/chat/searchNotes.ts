// How a web-searching answer shows its search (loaded by the client only for such an answer): the
// cited pages as numbered links under its text, and a line saying how many searches ran and
// whether the cost the relay reported includes them.
import * as l10n from '@vscode/l10n';
import type { ChatResult, Citation } from '../transport/answer';

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

/** The line under an answer that searched the web: how often, and whether the shown cost has it. */
export function searchNotice(searches: number, costReported: boolean): string {
  return costReported
    ? l10n.t('Searched the web {0} time(s); the cost the relay reported includes the searches.', searches)
    : l10n.t(
        'Searched the web {0} time(s); the relay does not report what the searches cost, so the cost shown leaves them out.',
        searches,
      );
}

/** Puts the citations under the answer's text and the searches on its notices (after its cost is known). */
export function presentSearch(r: ChatResult): void {
  if (r.citations?.length && r.message.content !== null)
    r.message.content = withSources(r.message.content, r.citations);
  if (r.webSearches) {
    const usage = r.usage as { cost?: unknown; reported_cost?: unknown } | undefined;
    const reported = typeof usage?.cost === 'number' || usage?.reported_cost !== undefined;
    r.notices = [...(r.notices ?? []), searchNotice(r.webSearches, reported)];
  }
}
