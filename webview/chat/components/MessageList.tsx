/**
 * The log: one keyed row per message (plus loose cards and the standalone error). Adding a row
 * diffs the keys only; the rows themselves do not render again. A long conversation mounts its
 * first screen at once, then the rest in slices (models/conversation.ts, unmounted).
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { els } from '../runtime';
import { scrollPin } from '../scrollPin';
import { useChat } from '../useChat';
import { Row } from './Message';
import { SummaryBlock } from './SummaryBlock';

/** Rows mounted per slice while the earlier part of a long conversation comes in. */
const SLICE_ROWS = 30;
/** From this many rows on, messages off screen are not styled or laid out (styles.css). */
const LONG_LOG = 300;

export function MessageList(): JSX.Element {
  const { t, conversation } = useChat();
  const ids = conversation.rows.value;
  const empty = !ids.some((id) => conversation.messages.has(id));
  const end = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    scrollPin.attach(els.log, end.current ?? undefined);
    return () => scrollPin.attach(undefined, undefined);
  }, []);
  return (
    <div
      class={ids.length > LONG_LOG ? 'log long-log' : 'log'}
      role="log"
      aria-live="off"
      tabIndex={0}
      aria-label={t('Conversation')}
      ref={(el) => {
        els.log = el ?? undefined;
      }}
    >
      {empty ? (
        <p class="empty">{t('Start a conversation. Enter sends, Shift+Enter adds a line, Escape stops the answer.')}</p>
      ) : null}
      {/* Another conversation is a new list, so no row of the last one is reused for it. */}
      <Rows key={conversation.id.value} ids={ids} gap={conversation.unmounted.value} />
      {/* The log's scroll anchor: while it is in view the log stays at its end (scrollPin.ts). */}
      <div ref={end} class="log-end" aria-hidden="true" />
    </div>
  );
}

function Rows({ ids, gap }: { ids: string[]; gap: { from: number; to: number } }): JSX.Element {
  const { conversation, context } = useChat();
  const { unmounted } = conversation;
  const pending = gap.from < gap.to;
  useLayoutEffect(() => {
    if (!pending) return undefined;
    // The next slice once this one is on screen; appended below, it leaves the view where it is.
    const timer = setTimeout(() => {
      unmounted.value = { from: Math.min(gap.to, gap.from + SLICE_ROWS), to: gap.to };
    }, 0);
    return () => clearTimeout(timer);
  }, [gap]);
  const summary = context.compaction.value;
  return (
    <>
      {(pending ? [...ids.slice(0, gap.from), ...ids.slice(gap.to)] : ids).flatMap((id) =>
        // The summary sits under the last message it covers (those above stay as they were).
        summary?.throughId === id
          ? [<Row key={id} id={id} />, <SummaryBlock key={'\u0000summary'} c={summary} />]
          : [<Row key={id} id={id} />],
      )}
    </>
  );
}
