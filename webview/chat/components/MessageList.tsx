/**
 * The log: one keyed row per message (plus loose cards and the standalone error). Adding a row
 * diffs the keys only; the rows themselves do not render again. A long conversation mounts its
 * newest screenful (models/conversation.ts, earlier); earlier rows mount a slice at a time as
 * the user scrolls up to them, or all at once from the button above them. Every mounted row costs
 * style, layout and an intersection check at each update, so the window is what keeps a
 * 2,000-message log as quick as a short one.
 */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { summaryCode } from '../lazy';
import { els, post } from '../runtime';
import { scrollPin } from '../scrollPin';
import { useChat } from '../useChat';
import { TextButton } from './buttons';
import { Row } from './Message';

/** Earlier rows mounted each time the user scrolls up to the top of the window. */
const SLICE_ROWS = 40;
/** Earlier rows mounted per frame once the user asked for all of them. */
const ALL_STEP = 150;
/** How far above the view the top of the window starts mounting the next slice. */
const AHEAD_PX = 800;
/** From this many rows on, messages off screen are not styled or laid out (styles.css). */
const LONG_LOG = 300;

export function MessageList(): JSX.Element {
  const { t, conversation, modelList } = useChat();
  const ids = conversation.rows.value;
  const earlier = Math.min(conversation.earlier.value, ids.length);
  const empty = !ids.some((id) => conversation.messages.has(id));
  const end = useRef<HTMLDivElement>(null);
  // The distance from the end to keep while earlier rows mount above what the user reads.
  const keep = useRef<number | undefined>(undefined);
  const mount = (next: number) => {
    const log = els.log;
    // Read from the geometry: the pin may not have seen a quick scroll to the top yet.
    if (log && log.scrollHeight - log.scrollTop - log.clientHeight > 2) keep.current = log.scrollHeight - log.scrollTop;
    conversation.earlier.value = next;
  };
  useLayoutEffect(() => {
    const log = els.log;
    if (keep.current !== undefined && log) log.scrollTop = log.scrollHeight - keep.current;
    keep.current = undefined;
  }, [earlier]);
  // Every earlier row, ALL_STEP per frame: 2,000 at once would hold the page for seconds.
  const mountAll = () => {
    const shown = conversation.id.peek();
    const step = () => {
      const left = conversation.earlier.peek();
      if (left <= 0 || conversation.id.peek() !== shown) return;
      mount(Math.max(0, left - ALL_STEP));
      requestAnimationFrame(() => setTimeout(step, 0));
    };
    step();
  };
  useLayoutEffect(() => {
    scrollPin.attach(els.log, end.current ?? undefined);
    return () => scrollPin.attach(undefined, undefined);
  }, []);
  return (
    <div
      class={ids.length - earlier > LONG_LOG ? 'log long-log' : 'log'}
      role="log"
      aria-live="off"
      tabIndex={0}
      aria-label={t('Conversation')}
      ref={(el) => {
        els.log = el ?? undefined;
      }}
    >
      {!empty ? null : modelList.noCredentials.value ? (
        // No key yet (and the gateway wants one): the next step, with the button that takes it.
        <p class="empty">
          {t('Set your gateway API key to start.')}{' '}
          <TextButton label={t('Set API Key')} onClick={() => post({ type: 'error/action', action: 'setApiKey' })} />
        </p>
      ) : (
        <p class="empty">{t('Start a conversation. Enter sends, Shift+Enter adds a line, Escape stops the answer.')}</p>
      )}
      {/* Another conversation is a new list, so no row of the last one is reused for it. */}
      {earlier > 0 ? <Earlier key={conversation.id.value} count={earlier} mount={mount} mountAll={mountAll} /> : null}
      <Rows key={conversation.id.value} ids={earlier > 0 ? ids.slice(earlier) : ids} />
      {/* The log's scroll anchor: while it is in view the log stays at its end (scrollPin.ts). */}
      <div ref={end} class="log-end" aria-hidden="true" />
    </div>
  );
}

/**
 * The top of the window: mounts the next slice when it comes within AHEAD_PX of the view, and
 * every earlier row, a step per frame, when pressed. Rows mounted above the view would push what the user reads down
 * (only the end marker anchors the log's scrolling), so the distance from the end is kept.
 */
function Earlier(props: { count: number; mount: (next: number) => void; mountAll: () => void }): JSX.Element {
  const { count, mount, mountAll } = props;
  const { t } = useChat();
  const el = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const log = els.log;
    if (!log || !el.current) return undefined;
    // A new observer per count: its first report says whether the top is still near the view
    // after the last slice, which would not be a change for an observer that already saw it.
    const observer = new IntersectionObserver(
      (entries) => entries.at(-1)?.isIntersecting && mount(Math.max(0, count - SLICE_ROWS)),
      { root: log, rootMargin: `${AHEAD_PX}px 0px 0px 0px` },
    );
    observer.observe(el.current);
    return () => observer.disconnect();
  }, [count]);
  return (
    <button
      ref={el}
      type="button"
      class="text-btn log-earlier"
      onClick={() => {
        mountAll();
        // The button goes with the last earlier row; the log keeps the focus.
        els.log?.focus({ preventScroll: true });
      }}
    >
      {t('Show {0} earlier messages', count)}
    </button>
  );
}

function Rows({ ids }: { ids: string[] }): JSX.Element {
  const { context } = useChat();
  const summary = context.compaction.value;
  // The summary's block is a chunk of its own (the first paint is full): shown once it is here.
  const code = summary && summaryCode.value.value;
  if (summary && !code) void summaryCode.load();
  return (
    <>
      {ids.flatMap((id) =>
        // The summary sits under the last message it covers (those above stay as they were).
        summary?.throughId === id
          ? [<Row key={id} id={id} />, code ? <code.SummaryBlock key={'\u0000summary'} c={summary} /> : null]
          : [<Row key={id} id={id} />],
      )}
    </>
  );
}
