/** The history panel: open, rename (in place) and delete (asks once more) past conversations. */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { HistoryEntry } from '../../src/shared/protocol';
import { post } from '../runtime';
import { conversation, history, historyVersion, t } from '../state';
import { IconButton } from './buttons';
import { PanelHead, togglePanel } from './PanelHead';

export function HistoryPanel(): JSX.Element {
  // A new list from the host starts every row over (no rename or armed delete survives it).
  return <HistoryBody key={historyVersion.value} />;
}

function HistoryBody(): JSX.Element {
  const entries = history.value;
  const active = conversation.value?.id;
  return (
    <section class="panel-body" aria-label={t('History')}>
      <PanelHead title={t('History')} />
      <ul class="history-list">
        {entries.length === 0 ? <li class="empty">{t('No conversations yet.')}</li> : null}
        {entries.map((e) => (
          <HistoryRow key={e.id} e={e} active={e.id === active} />
        ))}
      </ul>
    </section>
  );
}

function HistoryRow({ e, active }: { e: HistoryEntry; active: boolean }): JSX.Element {
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
    <li class={active ? 'active' : ''}>
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
          aria-label={`${t('Open')}: ${title}`}
          onClick={() => {
            post({ type: 'history/open', conversationId: e.id });
            togglePanel('history');
          }}
        >
          {title}
        </button>
      )}
      <span class="spacer" />
      <IconButton icon="edit" label={`${t('Rename')}: ${title}`} onClick={() => setRenaming(true)} />
      <IconButton
        icon="trash"
        label={deleteLabel}
        class={armed ? 'icon-btn armed' : 'icon-btn'}
        onClick={() => (armed ? post({ type: 'history/delete', conversationId: e.id }) : setArmed(true))}
      />
    </li>
  );
}
