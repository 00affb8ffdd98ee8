/** The collapsible "Earlier conversation summarised" block, under the last message the summary covers. */
import type { JSX } from 'preact';
import type { Compaction } from '../../../src/shared/protocol';
import { useChat } from '../useChat';

export function SummaryBlock({ c }: { c: Compaction }): JSX.Element {
  const { t } = useChat();
  return (
    <details class="summary-block">
      <summary>{t('Earlier conversation summarised ({0} messages)', c.messageCount)}</summary>
      <p class="summary-note">
        {t(
          'The model receives this summary instead of the messages above it; they stay in the history and the export.',
        )}
      </p>
      <div class="summary-text">{c.summary}</div>
    </details>
  );
}
