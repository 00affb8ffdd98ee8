/** The history panel: open, rename (in place) and delete (asks once more) past conversations. */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HistoryEntry } from '../../../src/shared/protocol';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { rovingIndex } from '../../common/roving';
import { useRevealed } from '../../common/revealed';
import { IconButton } from './buttons';
import { PanelHead } from './PanelHead';

export function HistoryPanel(): JSX.Element {
  const { history } = useChat();
  // A new list from the host starts every row over (no rename or armed delete survives it).
  return <HistoryBody key={history.version.value} />;
}

function HistoryBody(): JSX.Element {
  const { t, history, conversation } = useChat();
  const entries = history.entries.value;
  const active = conversation.id.value;
  // One row is in the Tab order at a time (roving tabindex): Tab enters the list at the open
  // conversation and leaves it after that row's buttons; the arrow keys, Home and End move between
  // rows. So a long history costs a keyboard user three Tab stops, not three per conversation.
  const [current, setCurrent] = useState(() =>
    Math.max(
      0,
      entries.findIndex((e) => e.id === active),
    ),
  );
  const list = useRef<HTMLUListElement>(null);
  // A long history mounts its first screen at once and the rest over the next frames.
  const { shown, all } = useRevealed(entries.length, 'history');
  const row = Math.min(current, Math.max(0, entries.length - 1));
  // A key that moves past the rows mounted so far (End) mounts them all, then focuses.
  const focusAfter = useRef<number | undefined>(undefined);
  const focusRow = (i: number): boolean => {
    const el = list.current?.querySelectorAll<HTMLElement>('.history-open')[i];
    el?.focus();
    return el !== undefined;
  };
  useEffect(() => {
    if (focusAfter.current !== undefined && focusRow(focusAfter.current)) focusAfter.current = undefined;
  });
  const onKeyDown = (ev: KeyboardEvent) => {
    if (!(ev.target instanceof HTMLButtonElement) || entries.length === 0) return;
    const next = rovingIndex(ev.key, row, entries.length);
    if (next === undefined) return;
    ev.preventDefault();
    setCurrent(next);
    if (next >= shown) {
      focusAfter.current = next;
      all();
    } else focusRow(next);
  };
  return (
    <section class="panel-body" aria-label={t('History')}>
      <PanelHead title={t('History')} />
      <ul class="history-list" ref={list} onKeyDown={onKeyDown}>
        {entries.length === 0 ? <li class="empty">{t('No conversations yet.')}</li> : null}
        {entries.slice(0, Math.max(shown, row + 1)).map((e, i) => (
          <HistoryRow key={e.id} e={e} active={e.id === active} current={i === row} onFocus={() => setCurrent(i)} />
        ))}
      </ul>
    </section>
  );
}

function HistoryRow({
  e,
  active,
  current,
  onFocus,
}: {
  e: HistoryEntry;
  active: boolean;
  current: boolean;
  onFocus: () => void;
}): JSX.Element {
  const { t, panels } = useChat();
  const tab = current ? 0 : -1;
  const title = e.title || e.id;
  const [renaming, setRenaming] = useState(false);
  const [armed, setArmed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const committed = useRef(false);
  useLayoutEffect(() => {
    if (!renaming) return;
    committed.current = false;
    input.current?.focus();
    input.current?.select();
  }, [renaming]);
  const commit = () => {
    if (committed.current) return;
    const v = input.current?.value.trim() ?? '';
    if (v && v !== title) {
      committed.current = true;
      post({ type: 'history/rename', conversationId: e.id, title: v });
    } else setRenaming(false);
  };
  const deleteLabel = armed ? t('Delete "{0}"?', title) : `${t('Delete')}: ${title}`;
  return (
    <li class={active ? 'active' : ''} onFocusCapture={onFocus}>
      {renaming ? (
        <input
          ref={input}
          type="text"
          value={title}
          aria-label={t('New name')}
          onKeyDown={(ev) => {
            if (ev.key === 'Enter') commit();
            if (ev.key === 'Escape') {
              ev.stopPropagation();
              committed.current = true;
              setRenaming(false);
            }
          }}
          onBlur={commit}
        />
      ) : (
        <button
          type="button"
          class="history-open"
          tabIndex={tab}
          data-autofocus={current ? '' : undefined}
          aria-current={active ? 'true' : undefined}
          aria-label={`${t('Open')}: ${title}`}
          onClick={() => {
            post({ type: 'history/open', conversationId: e.id });
            panels.toggle('history');
          }}
        >
          {title}
        </button>
      )}
      <span class="spacer" />
      <IconButton icon="edit" label={`${t('Rename')}: ${title}`} tabIndex={tab} onClick={() => setRenaming(true)} />
      <IconButton
        icon="trash"
        label={deleteLabel}
        tabIndex={tab}
        class={armed ? 'icon-btn armed' : 'icon-btn'}
        onClick={() => (armed ? post({ type: 'history/delete', conversationId: e.id }) : setArmed(true))}
      />
    </li>
  );
}
