/**
 * The log: one keyed row per message (plus loose cards and the standalone error). Adding a row
 * diffs the keys only; the rows themselves do not render again. A long conversation mounts its
 * last rows first, then the earlier ones in slices (state.shownFrom).
 */
import type { JSX } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import { els } from '../runtime';
import { conversationId, messages, rows, shownFrom, t } from '../state';
import { Row } from './Message';

/** Rows mounted per slice while the earlier part of a long conversation comes in. */
const SLICE_ROWS = 30;

export function MessageList(): JSX.Element {
  const ids = rows.value;
  const empty = !ids.some((id) => messages.has(id));
  return (
    <div
      class="log"
      role="log"
      aria-live="off"
      tabIndex={0}
      aria-label={t('Conversation')}
      ref={(el) => {
        els.log = el ?? undefined;
      }}
    >
      {empty ? <p class="empty">{t('Start a conversation. Enter sends, Shift+Enter adds a line, Escape stops the answer.')}</p> : null}
      {/* Another conversation is a new list, so no row of the last one is reused for it. */}
      <Rows key={conversationId.value} ids={ids} from={shownFrom.value} />
    </div>
  );
}

function Rows({ ids, from }: { ids: string[]; from: number }): JSX.Element {
  useLayoutEffect(() => {
    if (from <= 0) return undefined;
    // The rows above the screen; scroll anchoring keeps what the user sees where it is.
    const timer = setTimeout(() => {
      shownFrom.value = Math.max(0, from - SLICE_ROWS);
    }, 0);
    return () => clearTimeout(timer);
  }, [from]);
  return (
    <>
      {(from > 0 ? ids.slice(from) : ids).map((id) => (
        <Row key={id} id={id} />
      ))}
    </>
  );
}
