import { useEffect, useRef, useState } from 'preact/hooks';
import type { GalleryString } from '../../src/shared/galleryStrings';
import { rovingIndex } from '../common/roving';
import { useRevealed } from '../common/revealed';
import { entryKey, type Entry, type GalleryStore, type Filter } from './state';
import { ImageCard } from './imageCard';
import type { MediaKindFilter } from '../../src/shared/mediaKinds';
import { RemixForm } from './form';
import { TaskCard } from '../common/taskCard';
import { t } from './strings';

const FILTERS: { id: Filter; label: GalleryString }[] = [
  { id: 'all', label: 'All' },
  { id: 'running', label: 'Running' },
  { id: 'saved', label: 'Saved' },
  { id: 'failed', label: 'Failed' },
];

const KINDS: { id: MediaKindFilter; label: GalleryString }[] = [
  { id: 'all', label: 'Images and videos' },
  { id: 'images', label: 'Images' },
  { id: 'videos', label: 'Videos' },
];

/** The kind filter: a select, so the status filters keep their buttons. */
function KindFilter({ store }: { store: GalleryStore }) {
  return (
    <select
      class="kind"
      aria-label={t('Show')}
      value={store.kind.value}
      onChange={(e) => (store.kind.value = e.currentTarget.value as MediaKindFilter)}
    >
      {KINDS.map((k) => (
        <option key={k.id} value={k.id}>
          {t(k.label)}
        </option>
      ))}
    </select>
  );
}

/** The filters and the search, which survive the view being hidden (gallery/state.ts). */
function Toolbar({ store }: { store: GalleryStore }) {
  return (
    <div class="toolbar" role="toolbar" aria-label={t('Filter media')}>
      <KindFilter store={store} />
      {FILTERS.map((f) => (
        <button
          key={f.id}
          type="button"
          class={`filter${store.filter.value === f.id ? ' active' : ''}`}
          aria-pressed={store.filter.value === f.id}
          data-filter={f.id}
          onClick={() => (store.filter.value = f.id)}
        >
          {t(f.label)}
        </button>
      ))}
      <input
        class="search"
        type="search"
        placeholder={t('Search prompt, model, id')}
        aria-label={t('Search media')}
        value={store.search.value}
        onInput={(e) => (store.search.value = e.currentTarget.value)}
      />
    </div>
  );
}

/** One entry's card: a video task's or a saved image's. */
function Card(p: { entry: Entry; store: GalleryStore; index: number; current: boolean; onFocus: (k: string) => void }) {
  const e = p.entry;
  const common = { post: p.store.post, index: p.index, current: p.current, onFocus: () => p.onFocus(entryKey(e)) };
  return e.kind === 'video' ? <TaskCard task={e.item} {...common} /> : <ImageCard image={e.item} {...common} />;
}

/** The gallery: filters and search, the remix form when open, then one card per task. */
export function App({ store }: { store: GalleryStore }) {
  const tasks = store.visible.value;
  const notice = store.notice.value;
  // Roving tabindex: one card is in the Tab order (the last one focused, else the first); the
  // arrow keys, Home and End move between cards, Tab goes into the focused card's buttons.
  const [current, setCurrent] = useState<string | undefined>(undefined);
  const list = useRef<HTMLUListElement>(null);
  const at = Math.max(
    0,
    tasks.findIndex((e) => entryKey(e) === current),
  );
  // 500 cards mount their first screen at once and the rest over the next frames; a new filter or
  // search starts over, a task update does not.
  const view = `${store.kind.value}\u0000${store.filter.value}\u0000${store.search.value}`;
  const { shown, all } = useRevealed(tasks.length, view);
  const focusAfter = useRef<number | undefined>(undefined);
  const focusCard = (i: number): boolean => {
    const el = list.current?.querySelectorAll<HTMLElement>('li.task')[i];
    el?.focus();
    return el !== undefined;
  };
  useEffect(() => {
    if (focusAfter.current !== undefined && focusCard(focusAfter.current)) focusAfter.current = undefined;
  });
  const onKeyDown = (ev: KeyboardEvent) => {
    const card = ev.target instanceof HTMLElement && ev.target.matches('li.task') ? ev.target : undefined;
    if (!card) return;
    const next = rovingIndex(ev.key, at, tasks.length);
    if (next === undefined) return;
    ev.preventDefault();
    const e = tasks[next];
    setCurrent(e && entryKey(e));
    if (next >= shown) {
      focusAfter.current = next;
      all();
    } else focusCard(next);
  };
  return (
    <main class="gallery">
      <h1 class="sr-only">{t('Media')}</h1>
      <Toolbar store={store} />
      {notice && (
        <div class={`notice${notice.error ? ' error' : ''}`} role={notice.error ? 'alert' : 'status'}>
          <pre>{notice.text}</pre>
          <button type="button" class="link" onClick={() => (store.notice.value = null)}>
            {t('Dismiss')}
          </button>
        </div>
      )}
      {store.form.value && <RemixForm store={store} form={store.form.value} />}
      {tasks.length === 0 ? (
        <p class="empty">
          {store.tasks.value.length === 0 && store.images.value.length === 0
            ? t(
                'No images or videos yet. Make one with the command "Gateway Studio: Generate Image" or "Gateway Studio: Generate Video".',
              )
            : t('No task matches.')}
        </p>
      ) : (
        // A new filter or search replaces the list element: removing 450 cards one by one (each with
        // its poster or player) cost more than drawing the matches again.
        <ul key={view} class="tasks" ref={list} onKeyDown={onKeyDown}>
          {tasks.slice(0, Math.max(shown, at + 1)).map((e, i) => (
            <Card key={entryKey(e)} entry={e} store={store} index={i} current={i === at} onFocus={setCurrent} />
          ))}
        </ul>
      )}
    </main>
  );
}
